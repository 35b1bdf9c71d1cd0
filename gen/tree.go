package gen

import "github.com/conc-dev/conc/internal/progtree"

// node is one statement or declaration of a .conc program, laid out one per
// line (progtree.Node). The generators build nodes and print them
// (testkit/shrink reads the printed layout back, for the tests'
// counterexamples).
type node = progtree.Node

func leaf(s string) *node { return progtree.Leaf(s) }

func block(head string, bodies ...[]*node) *node {
	n := &node{Head: head, Bodies: bodies}
	for i, b := range n.Bodies {
		if b == nil {
			n.Bodies[i] = []*node{}
		}
	}
	return n
}

// render prints a program: comment's lines, then the top-level nodes.
func render(comment string, top []*node) string { return progtree.Render(comment, top) }
