package shrink

import "github.com/conc-dev/conc/internal/progtree"

// node is a statement or declaration as a line: a leaf's text, or a
// block's head ("atomic", "choose", "thread T") and its bodies (two or
// more for choose). It is the shape of the layout gen prints
// (progtree.Node); Shrink edits it and prints it back.
type node = progtree.Node

func leaf(s string) *node { return progtree.Leaf(s) }

func block(head string) *node { return &node{Head: head, Bodies: [][]*node{{}}} }

func cloneList(l []*node) []*node { return progtree.CloneList(l) }

// render prints a program as gen does: one statement a line, bodies
// indented by two spaces, a blank line before and after a top-level block.
func render(top []*node) string { return progtree.Render("", top) }
