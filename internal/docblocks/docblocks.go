// Package docblocks extracts the fenced code blocks of a Markdown page, so
// that tests can hold a document's examples to what the code does
// (docs/language.md's conc blocks are compiled by lang's tests and checked
// by the examples' engines).
package docblocks

import "strings"

// Block is one fenced code block.
type Block struct {
	Info string // the word after the opening fence: "conc", "text", …
	Line int    // the page's line of the block's first line of code (1-based)
	Text string // the code, each line ending in "\n"
}

// Extract returns the page's fenced code blocks (``` fences at the start
// of a line) in order. A block left open runs to the end of the page.
func Extract(md string) []Block {
	var blocks []Block
	var cur *Block
	for i, line := range strings.Split(md, "\n") {
		fence := strings.HasPrefix(line, "```")
		switch {
		case cur == nil && fence:
			cur = &Block{Info: strings.TrimSpace(strings.TrimPrefix(line, "```")), Line: i + 2}
		case cur != nil && fence:
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.Text += line + "\n"
		}
	}
	if cur != nil {
		blocks = append(blocks, *cur)
	}
	return blocks
}

// Of returns the blocks whose info word is info.
func Of(blocks []Block, info string) []Block {
	var out []Block
	for _, b := range blocks {
		if b.Info == info {
			out = append(out, b)
		}
	}
	return out
}
