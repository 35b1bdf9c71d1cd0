package shrink

import "strings"

// parseLines reads the one-statement-a-line layout of render back into
// nodes: a line ending in "{" opens a block, "} or {" starts its next body,
// "}" closes it, and any other line is a leaf. It reports false when the
// braces do not balance. Comments are removed first.
func parseLines(src string) ([]*node, bool) {
	root := block("")
	stack := []*node{root}
	for _, raw := range strings.Split(stripComments(src), "\n") {
		line := strings.TrimSpace(raw)
		cur := stack[len(stack)-1]
		switch {
		case line == "":
		case line == "}":
			if len(stack) == 1 {
				return nil, false
			}
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(line, "}") && strings.HasSuffix(line, "{"):
			if len(stack) == 1 {
				return nil, false
			}
			cur.Bodies = append(cur.Bodies, []*node{})
		case strings.HasSuffix(line, "{"):
			n := block(strings.TrimSpace(strings.TrimSuffix(line, "{")))
			appendStmt(cur, n)
			stack = append(stack, n)
		default:
			appendStmt(cur, leaf(line))
		}
	}
	return root.Bodies[0], len(stack) == 1
}

func appendStmt(b *node, n *node) {
	last := len(b.Bodies) - 1
	b.Bodies[last] = append(b.Bodies[last], n)
}

// stripComments removes // and /* */ comments (.conc has no string
// literals, so no other context can hold them), keeping line breaks.
func stripComments(src string) string {
	var sb strings.Builder
	for i := 0; i < len(src); i++ {
		switch {
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if i < len(src) {
				sb.WriteByte('\n')
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return sb.String()
			}
			sb.WriteString(" " + strings.Repeat("\n", strings.Count(src[i:i+2+end], "\n")))
			i += end + 3
		default:
			sb.WriteByte(src[i])
		}
	}
	return sb.String()
}
