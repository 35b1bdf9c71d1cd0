package shrink

import "strings"

// node is a statement or declaration as a line: a leaf's text, or a
// block's head ("atomic", "choose", "thread T") and its bodies (two or
// more for choose). It is the shape of the layout gen prints; Shrink edits
// it and prints it back.
type node struct {
	head   string
	bodies [][]*node // nil for a leaf
}

func leaf(s string) *node { return &node{head: s} }

func block(head string) *node { return &node{head: head, bodies: [][]*node{{}}} }

func (n *node) isBlock() bool { return n.bodies != nil }

// clone copies n deeply, so that an edit of the copy leaves n alone.
func (n *node) clone() *node {
	c := &node{head: n.head}
	if n.bodies != nil {
		c.bodies = make([][]*node, len(n.bodies))
		for i, b := range n.bodies {
			c.bodies[i] = cloneList(b)
		}
	}
	return c
}

func cloneList(l []*node) []*node {
	c := make([]*node, len(l))
	for i, n := range l {
		c[i] = n.clone()
	}
	return c
}

// render prints a program as gen does: one statement a line, bodies
// indented by two spaces, a blank line before and after a top-level block.
func render(top []*node) string {
	var sb strings.Builder
	for i, n := range top {
		if i > 0 && (n.isBlock() || top[i-1].isBlock()) {
			sb.WriteString("\n")
		}
		n.write(&sb, "")
	}
	return sb.String()
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
