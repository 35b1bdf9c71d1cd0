package gen

import "strings"

// node is one statement or declaration of a .conc program, laid out one per
// line: a leaf is a single line; a block is a header line ending in "{", its
// bodies separated by "} or {" lines (choose), and a closing "}". The
// generators build nodes and print them (internal/shrink reads the printed
// layout back, for the tests' counterexamples).
type node struct {
	head   string
	bodies [][]*node // nil for a leaf
}

func leaf(s string) *node { return &node{head: s} }

func block(head string, bodies ...[]*node) *node {
	n := &node{head: head, bodies: bodies}
	for i, b := range n.bodies {
		if b == nil {
			n.bodies[i] = []*node{}
		}
	}
	return n
}

func (n *node) isBlock() bool { return n.bodies != nil }

// render prints a program: top-level nodes separated by blank lines when
// they are blocks, bodies indented by two spaces.
func render(comment string, top []*node) string {
	pr := newPrinter(comment)
	for _, n := range top {
		pr.add(n)
	}
	return pr.sb.String()
}

// printer renders top-level nodes as they come, so that a generator can
// drop each thread's nodes once printed: the text is then all it holds.
type printer struct {
	sb   strings.Builder
	last *node
}

func newPrinter(comment string) *printer {
	pr := &printer{}
	if comment != "" {
		for _, l := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
			pr.sb.WriteString("// " + l + "\n")
		}
	}
	return pr
}

func (pr *printer) add(n *node) {
	if pr.last != nil && (n.isBlock() || pr.last.isBlock()) {
		pr.sb.WriteString("\n")
	}
	n.write(&pr.sb, "")
	pr.last = n
}

func (n *node) write(sb *strings.Builder, indent string) {
	if !n.isBlock() {
		sb.WriteString(indent + n.head + "\n")
		return
	}
	sb.WriteString(indent + strings.TrimSpace(n.head+" {") + "\n")
	for i, b := range n.bodies {
		if i > 0 {
			sb.WriteString(indent + "} or {\n")
		}
		for _, c := range b {
			c.write(sb, indent+"  ")
		}
	}
	sb.WriteString(indent + "}\n")
}
