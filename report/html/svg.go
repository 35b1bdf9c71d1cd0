package html

import (
	"bufio"
	"fmt"
	stdhtml "html"
	"unicode/utf8"
)

// diagram is a timeline to draw: lanes (threads) top to bottom, columns
// (time: run order, or trace lines) left to right, and on them event
// marks, transaction boxes and the cycle's arrows. The witness and the
// groups fill one each (witness.go, groups.go); draw lays it out.
type diagram struct {
	id     string // unique on the page: it names the arrowhead marker
	lanes  []string
	cols   []column
	marks  []mark
	boxes  []box
	arrows []arrow
	// axis names what the columns' labels count: "event" (run order) or
	// "line" (trace lines, as the text report names them).
	axis string
	// xs and ws are each column's centre and width, and width the whole
	// picture's (layout).
	xs, ws []int
	width  int
}

// column is one step of the time axis: an event's column, labelled with
// its run index or trace line, or a gap standing for skipped events.
type column struct {
	label string
	gap   string // non-empty: the column stands for what was left out
}

// mark is one event: data is its data-event value.
type mark struct {
	col, lane   int
	data        string
	op, target  string
	title       string
	cycle       bool
	interrupted bool
}

// box is one transaction, spanning columns from..to of its lane.
type box struct {
	lane, from, to int
	name, title    string
	cycle          bool
	interrupted    bool
}

// arrow is one edge of the cycle from mark from to mark to; edge is its
// data-edge value ("" for an elision, which draws dashed).
type arrow struct {
	from, to     int
	label, title string
	edge         string
}

// Geometry, in SVG user units (pixels at 100%).
const (
	colW    = 76 // an event's column, when the picture fits fitW
	minColW = 52 // the narrowest an event's column gets to fit fitW
	gapW    = 52 // a column standing for events left out
	fitW    = 1340
	laneH   = 96
	leftW   = 64 // the lane names
	topH    = 14
	axisH   = 22
	markR   = 6
	boxHalf = 28 // half a box's height
	// charW is a character's width in the box names' and targets' 10px
	// monospace (about 0.62 em).
	charW = 6.2
)

func laneY(l int) int { return topH + l*laneH + laneH/2 }

func (d *diagram) colX(c int) int {
	if d.xs == nil {
		d.layout()
	}
	return d.xs[c]
}

// layout gives each column its x: an event's column colW wide, narrower
// (down to minColW) so that the whole fits fitW, a page's width at
// 1,500 pixels, without scrolling; a gap column gapW. The page's style
// scales a picture that is still wider down to its box, so that the whole
// cycle is always in view. The width leaves room on the right for the
// name of a box that ends in the last column.
func (d *diagram) layout() {
	events, gaps := 0, 0
	for _, c := range d.cols {
		if c.gap != "" {
			gaps++
		} else {
			events++
		}
	}
	cw := colW
	if events > 0 {
		cw = max(minColW, min(colW, (fitW-leftW-24-gaps*gapW)/events))
	}
	d.xs, d.ws = nil, nil
	x := leftW
	for _, c := range d.cols {
		w := cw
		if c.gap != "" {
			w = gapW
		}
		d.xs, d.ws = append(d.xs, x+w/2), append(d.ws, w)
		x += w
	}
	right := x + 24
	for _, b := range d.boxes {
		x0, _ := d.boxSpan(b)
		right = max(right, x0+4+int(charW*float64(utf8.RuneCountInString(b.name)))+8)
	}
	d.width = right
}

// boxSpan is the x extent of box b's rectangle.
func (d *diagram) boxSpan(b box) (x0, x1 int) {
	return d.colX(b.from) - d.ws[b.from]/2 + 5, d.colX(b.to) + d.ws[b.to]/2 - 5
}

// targetChars is how many characters of a target fit under its mark.
func (d *diagram) targetChars(c int) int { return max(4, int(float64(d.ws[c]-6)/charW)) }

// draw writes d as one <svg>: lanes, boxes, arrows, marks, then the
// arrows' labels on top so that nothing hides them.
func (d *diagram) draw(b *bufio.Writer) {
	d.layout()
	w, h := d.width, topH+len(d.lanes)*laneH+axisH
	fmt.Fprintf(b, `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", w, h, w, h)
	fmt.Fprintf(b, `<defs><marker id="%s-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>`+"\n", d.id)
	d.drawLanes(b, w)
	for _, x := range d.boxes {
		d.drawBox(b, x)
	}
	for _, a := range d.arrows {
		d.drawArrow(b, a)
	}
	for _, m := range d.marks {
		d.drawMark(b, m)
	}
	for i, sp := range d.labelSpots() {
		a := d.arrows[i]
		label := ""
		if a.edge != "" {
			label = fmt.Sprintf(` data-label="%s"`, esc(a.edge)) // the step script's: which arrow it names
		}
		fmt.Fprintf(b, `<text class="%s" x="%.1f" y="%.1f"%s><title>%s</title>%s</text>`+"\n", sp.class, sp.x, sp.y, label, esc(a.title), esc(sp.text))
	}
	b.WriteString("</svg>\n")
}

// drawLanes draws each lane's line and name, the gap columns and the axis.
func (d *diagram) drawLanes(b *bufio.Writer, w int) {
	for l, name := range d.lanes {
		y := laneY(l)
		fmt.Fprintf(b, `<line class="lane" x1="%d" y1="%d" x2="%d" y2="%d"/>`, leftW, y, w-16, y)
		fmt.Fprintf(b, `<text class="lane-name" x="4" y="%d">%s</text>`+"\n", y+4, esc(short(name, 8)))
	}
	bottom := topH + len(d.lanes)*laneH
	if d.axis != "" {
		fmt.Fprintf(b, `<text class="axis-name" x="4" y="%d">%s</text>`+"\n", bottom+14, esc(d.axis))
	}
	for c, col := range d.cols {
		x := d.colX(c)
		if col.gap != "" {
			fmt.Fprintf(b, `<g class="gap"><title>%s</title><line x1="%d" y1="%d" x2="%d" y2="%d"/><text x="%d" y="%d">⋯</text><text class="gap-count" x="%d" y="%d">%s</text></g>`+"\n",
				esc(col.gap), x, topH, x, bottom, x, topH+12, x, bottom+14, esc(short(col.label, 14)))
			continue
		}
		fmt.Fprintf(b, `<text class="axis" x="%d" y="%d">%s</text>`+"\n", x, bottom+14, esc(col.label))
	}
}

func (d *diagram) drawBox(b *bufio.Writer, x box) {
	class := "txn"
	if x.cycle {
		class += " on-cycle"
	}
	if x.interrupted {
		class += " interrupted"
	}
	x0, x1 := d.boxSpan(x)
	y := laneY(x.lane)
	fmt.Fprintf(b, `<g class="%s"><title>%s</title><rect x="%d" y="%d" width="%d" height="%d" rx="8"/><text x="%d" y="%d">%s</text></g>`+"\n",
		class, esc(x.title), x0, y-boxHalf, x1-x0, 2*boxHalf, x0+4, y-boxHalf-3, esc(x.name))
}

func (d *diagram) drawMark(b *bufio.Writer, m mark) {
	class := "event"
	if m.cycle {
		class += " cycle"
	}
	if m.interrupted {
		class += " interrupted"
	}
	x, y := d.colX(m.col), laneY(m.lane)
	fmt.Fprintf(b, `<g class="%s" data-event="%s"><title>%s</title><circle cx="%d" cy="%d" r="%d"/>`, class, esc(m.data), esc(m.title), x, y, markR)
	fmt.Fprintf(b, `<text class="op" x="%d" y="%d">%s</text>`, x, y-10, esc(m.op))
	if m.target != "" {
		fmt.Fprintf(b, `<text class="target" x="%d" y="%d">%s</text>`, x, y+19, esc(short(m.target, d.targetChars(m.col))))
	}
	b.WriteString("</g>\n")
}

// curve is an arrow's quadratic Bézier: its ends, pulled back from the
// marks' centres, and its control point, bowed down below the boxes so
// that an arrow along a lane (program order) does not run through the
// marks between its ends nor over the boxes' names (an elision along a
// lane bows up instead, clear of them).
func (d *diagram) curve(a arrow) (x0, y0, cx, cy, x1, y1 float64) {
	f, t := d.marks[a.from], d.marks[a.to]
	x0, y0 = float64(d.colX(f.col)), float64(laneY(f.lane))
	x1, y1 = float64(d.colX(t.col)), float64(laneY(t.lane))
	cx, cy = (x0+x1)/2, (y0+y1)/2
	switch {
	case f.lane == t.lane && a.edge == "":
		cy -= 80 // an elision along a lane: above it, clear of program order
	case f.lane == t.lane:
		cy += 64
	default:
		cx += 18 // a slight bow tells two arrows between the same lanes apart
	}
	pull := func(x, y *float64, tx, ty float64) {
		dx, dy := tx-*x, ty-*y
		n := max(abs(dx)+abs(dy), 1)
		*x += dx / n * (markR + 3)
		*y += dy / n * (markR + 3)
	}
	pull(&x0, &y0, cx, cy)
	pull(&x1, &y1, cx, cy)
	return
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func (d *diagram) drawArrow(b *bufio.Writer, a arrow) {
	x0, y0, cx, cy, x1, y1 := d.curve(a)
	attr, class := "", "edge"
	if a.edge != "" {
		attr = fmt.Sprintf(` data-edge="%s"`, esc(a.edge))
	} else {
		class += " elided"
	}
	fmt.Fprintf(b, `<g class="%s"%s><title>%s</title><path d="M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f" marker-end="url(#%s-head)"/></g>`+"\n",
		class, attr, esc(a.title), x0, y0, cx, cy, x1, y1, d.id)
}

// spot is where an arrow's label goes: centred on x, baseline y.
type spot struct {
	x, y        float64
	class, text string
}

// rect is a text's extent: x0..x1 across, y0..y1 down.
type rect struct{ x0, x1, y0, y1 float64 }

func (r rect) meets(o rect) bool {
	return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1
}

// size is the width and height of the label's box, from its font (the
// CSS's .edge-label sizes, monospace: about 0.62 em per character).
func (s spot) size() (w, h float64) {
	em := 11.0
	if s.class != "edge-label" {
		em = 8
	}
	return 0.62 * em * float64(utf8.RuneCountInString(s.text)), em + 2
}

// rect is the label's extent around its baseline.
func (s spot) rect() rect {
	w, h := s.size()
	return rect{s.x - w/2, s.x + w/2, s.y - h + 2, s.y + 2}
}

// titleRects are the extents of the boxes' names (10px, left-aligned
// above the box): a label must not cover them either.
func (d *diagram) titleRects() []rect {
	var out []rect
	for _, x := range d.boxes {
		if x.name == "" {
			continue
		}
		x0, _ := d.boxSpan(x)
		y := float64(laneY(x.lane) - boxHalf - 3)
		w := charW * float64(utf8.RuneCountInString(x.name))
		out = append(out, rect{float64(x0 + 4), float64(x0+4) + w, y - 10, y + 2})
	}
	return out
}

// labelSpots places each arrow's label at its curve's midpoint, moved a
// line at a time, down then up, alternately farther, to the nearest place
// where it covers no label placed before it and no box's name: two
// arrows that cross at their midpoints (a lost update's, as in
// examples/bank.conc) would otherwise write their labels over each
// other, and a long variable name (a trace's field) ran over the name of
// the box the arrow enters.
func (d *diagram) labelSpots() []spot {
	var out []spot
	titles := d.titleRects()
	for _, a := range d.arrows {
		sp := d.labelAt(a)
		_, h := sp.size()
		y := sp.y
		for k := 1; k < 40 && !d.clear(sp, out, titles); k++ {
			step := float64((k + 1) / 2)
			if k%2 == 0 {
				step = -step
			}
			sp.y = y + step*h
		}
		out = append(out, sp)
	}
	return out
}

// labelAt is arrow a's label at its curve's midpoint.
func (d *diagram) labelAt(a arrow) spot {
	x0, y0, cx, cy, x1, y1 := d.curve(a)
	sp := spot{x: (x0 + 2*cx + x1) / 4, y: (y0 + 2*cy + y1) / 4, class: "edge-label", text: short(a.label, 24)}
	switch {
	case d.marks[a.from].lane == d.marks[a.to].lane && a.edge == "":
		sp.y -= 4 // over the arc
	case d.marks[a.from].lane == d.marks[a.to].lane:
		sp.y += 11 // under the arc, small enough for a column's width
		sp.class += " same-lane"
	default:
		sp.y -= 3
	}
	return sp
}

// clear reports whether sp covers none of the labels placed and none of
// the boxes' names.
func (d *diagram) clear(sp spot, placed []spot, titles []rect) bool {
	r := sp.rect()
	for _, o := range placed {
		if r.meets(o.rect()) {
			return false
		}
	}
	for _, t := range titles {
		if r.meets(t) {
			return false
		}
	}
	return true
}

// short cuts s to n runes, with "…" for the rest (the tooltip has it all).
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func esc(s string) string { return stdhtml.EscapeString(s) }
