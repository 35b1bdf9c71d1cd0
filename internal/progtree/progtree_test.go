package progtree

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRender: the layout gen prints and shrink reads back: comment lines,
// blank lines around top-level blocks only, "} or {" between bodies.
func TestRender(t *testing.T) {
	choose := &Node{Head: "choose", Bodies: [][]*Node{{Leaf("x = 1")}, {}}}
	top := []*Node{
		Leaf("vars x"), Leaf("locks m"),
		{Head: "thread T", Bodies: [][]*Node{{{Head: "atomic", Bodies: [][]*Node{{choose}}}}}},
		{Head: "thread U", Bodies: [][]*Node{{}}},
	}
	want := "// a\n// b\nvars x\nlocks m\n\nthread T {\n  atomic {\n    choose {\n      x = 1\n    } or {\n    }\n  }\n}\n\nthread U {\n}\n"
	require.Equal(t, want, Render("a\nb\n", top))
}

// TestClone: an edit of a clone leaves the original alone.
func TestClone(t *testing.T) {
	n := &Node{Head: "thread T", Bodies: [][]*Node{{Leaf("x = 1")}}}
	before := Render("", []*Node{n})
	c := n.Clone()
	c.Head = "thread U"
	c.Bodies[0][0].Head = "y = 2"
	c.Bodies[0] = append(c.Bodies[0], Leaf("z = 3"))
	require.Equal(t, before, Render("", []*Node{n}))
}
