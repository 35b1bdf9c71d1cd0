// Package docrefs holds the tests that keep the repository's references
// whole: every "docs/spec.md §N" names a section that docs/spec.md has, and
// no comment or doc points at a path outside the repository, which a
// user's clone would not have.
package docrefs
