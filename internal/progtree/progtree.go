// Package progtree is the line layout of a .conc program: gen builds
// programs as trees of nodes and prints them; testkit/shrink reads the
// printed text back into the same tree, edits it and prints it again. One
// printer serves both, so that a shrunk counterexample is laid out as gen
// lays out its programs.
package progtree

import "strings"

// Node is one statement or declaration, laid out one per line: a leaf is a
// single line; a block is a head line ending in "{" ("atomic", "choose",
// "thread T"), its bodies separated by "} or {" lines (choose), and a
// closing "}".
type Node struct {
	Head   string
	Bodies [][]*Node // nil for a leaf
}

// Leaf is a one-line node.
func Leaf(s string) *Node { return &Node{Head: s} }

// IsBlock tells a block from a leaf.
func (n *Node) IsBlock() bool { return n.Bodies != nil }

// Clone copies n deeply, so that an edit of the copy leaves n alone.
func (n *Node) Clone() *Node {
	c := &Node{Head: n.Head}
	if n.Bodies != nil {
		c.Bodies = make([][]*Node, len(n.Bodies))
		for i, b := range n.Bodies {
			c.Bodies[i] = CloneList(b)
		}
	}
	return c
}

// CloneList clones each node of l.
func CloneList(l []*Node) []*Node {
	c := make([]*Node, len(l))
	for i, n := range l {
		c[i] = n.Clone()
	}
	return c
}

// Render prints a program: comment's lines as // comments, then the
// top-level nodes, separated by blank lines when they are blocks, bodies
// indented by two spaces.
func Render(comment string, top []*Node) string {
	pr := NewPrinter(comment)
	for _, n := range top {
		pr.Add(n)
	}
	return pr.String()
}

// Printer renders top-level nodes as they come, so that a generator can
// drop each thread's nodes once printed: the text is then all it holds.
type Printer struct {
	sb   strings.Builder
	last *Node
}

// NewPrinter starts a program with comment's lines ("" for none).
func NewPrinter(comment string) *Printer {
	pr := &Printer{}
	if comment != "" {
		for _, l := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
			pr.sb.WriteString("// " + l + "\n")
		}
	}
	return pr
}

// Add prints the next top-level node.
func (pr *Printer) Add(n *Node) {
	if pr.last != nil && (n.IsBlock() || pr.last.IsBlock()) {
		pr.sb.WriteString("\n")
	}
	n.write(&pr.sb, "")
	pr.last = n
}

// String is the text printed so far.
func (pr *Printer) String() string { return pr.sb.String() }

func (n *Node) write(sb *strings.Builder, indent string) {
	if !n.IsBlock() {
		sb.WriteString(indent + n.Head + "\n")
		return
	}
	sb.WriteString(indent + strings.TrimSpace(n.Head+" {") + "\n")
	for i, b := range n.Bodies {
		if i > 0 {
			sb.WriteString(indent + "} or {\n")
		}
		for _, c := range b {
			c.write(sb, indent+"  ")
		}
	}
	sb.WriteString(indent + "}\n")
}
