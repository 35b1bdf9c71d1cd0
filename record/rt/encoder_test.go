//go:build go1.21

package rt

import (
	"bytes"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/conc-dev/conc/internal/testflag"
)

// refNames names the events' arguments and threads as docs/record.md
// says, literally: the reference for the encoder, which caches lines by
// their records' words.
type refNames struct {
	count   map[string]int
	num     map[string]map[unsafe.Pointer]int
	fixed   map[unsafe.Pointer]string
	threads map[uint64]string
	unknown int
}

func newRefNames() *refNames {
	return &refNames{count: map[string]int{}, num: map[string]map[unsafe.Pointer]int{},
		fixed: map[unsafe.Pointer]string{}, threads: map[uint64]string{}}
}

// number: objects are numbered per type in the order first met.
func (n *refNames) number(typ string, p unsafe.Pointer) string {
	if n.num[typ] == nil {
		n.num[typ] = map[unsafe.Pointer]int{}
	}
	if _, ok := n.num[typ][p]; !ok {
		n.count[typ]++
		n.num[typ][p] = n.count[typ]
	}
	return strconv.Itoa(n.num[typ][p])
}

func (n *refNames) variable(hint string, obj unsafe.Pointer) string {
	if obj == nil {
		return hint
	}
	typ := hint
	if i := strings.LastIndexByte(hint, '.'); i > 0 {
		typ = hint[:i]
	}
	return hint + "#" + n.number(typ, obj)
}

func (n *refNames) arg(a ref) string {
	switch a.how {
	case howLit:
		return a.s
	case howVar:
		return n.variable(a.s, a.obj)
	case howElem:
		return a.s + "#" + n.number(a.s+"[]", a.p) + "[" + strconv.Itoa(a.n) + "]"
	case howMap:
		return a.s + "[]#" + n.number(a.s+"[]", a.p)
	case howObj:
		if _, ok := n.fixed[a.p]; !ok {
			if a.s != "" {
				n.fixed[a.p] = n.variable(a.s, a.obj)
			} else {
				n.fixed[a.p] = a.tag.kind + "#" + n.number(a.tag.kind, a.p)
			}
		}
		name := n.fixed[a.p] + a.tag.tail
		if a.n > 0 {
			name += strconv.Itoa(a.n)
		}
		return name
	}
	return ""
}

func (n *refNames) thread(g uint64) string {
	if _, ok := n.threads[g]; !ok {
		n.unknown++
		n.threads[g] = "u" + strconv.Itoa(n.unknown)
	}
	return n.threads[g]
}

// testEvent is one record as a test writes it: one event, or two (k
// says the second's op and whether its argument is the first's room).
type testEvent struct {
	g   uint64
	op  op
	k   kind
	a   ref
	loc string
}

func (e testEvent) kind() kind { return kindOf(e.op, packHow(&e.a)) | e.k }

// line is the reference's text for e ("" for records that write none).
func (n *refNames) line(e testEvent) string {
	switch e.op {
	case opName:
		if _, ok := n.threads[e.g]; !ok || e.a.n != 1 {
			n.threads[e.g] = e.a.s
		}
		return ""
	case opMeet:
		if e.g != 0 {
			n.thread(e.g)
		}
		n.arg(e.a)
		return ""
	}
	s := n.thread(e.g) + "|" + opText[e.op]
	if arg := n.arg(e.a); arg != "" {
		s += "(" + arg + ")"
	}
	if e.loc != "" {
		s += "|" + e.loc
	}
	s += "\n"
	if e.k.pair() {
		second := e
		second.op, second.k = e.k.op2(), 0
		if e.k&room != 0 {
			second.a.tag = roomTag
		}
		s += n.line(second)
	}
	return s
}

// eventGen draws events over a few goroutines, objects and places, with
// every kind of argument; some strings are copies (same text, another
// address), some refs do not fit a record (boxed).
type eventGen struct {
	rng    *rand.Rand
	objs   []unsafe.Pointer
	recent []testEvent
}

func (g *eventGen) pick(xs ...string) string {
	s := xs[g.rng.Intn(len(xs))]
	switch g.rng.Intn(8) {
	case 0:
		s = strings.Clone(s) // the same text elsewhere
	case 1:
		s = s[:len(s)/2] // the same address, shorter
	}
	return s
}

func (g *eventGen) obj() unsafe.Pointer { return g.objs[g.rng.Intn(len(g.objs))] }

func (g *eventGen) ref() ref {
	r := g.rng
	tags := []*tag{mutexTag, rwmutexTag, chanTag, roomTag, closeTag, epochTag, onceTag, {kind: "cond", tail: ".s"}}
	switch r.Intn(7) {
	case 0:
		return lit(g.pick("g1", "test#2", "x"))
	case 1:
		if r.Intn(3) == 0 {
			return variable(g.pick("pkg.v", "pkg.w"), nil)
		}
		return ref{how: howVar, s: g.pick("bank.Account.balance", "bank.Account.mu", "pkg.T.f"), obj: g.obj()}
	case 2:
		return element(g.obj(), r.Intn(4), g.pick("pkg.T.buf", "os.Args", "local"))
	case 3:
		return mapOf(g.obj(), g.pick("pkg.T.m", "pkg.m"))
	case 4:
		t := tags[r.Intn(len(tags))]
		hint := ""
		if r.Intn(2) == 0 {
			hint = g.pick("bank.Account.mu", "pkg.mu")
		}
		a := ref{how: howObj, s: hint, obj: g.obj(), p: g.obj(), tag: t}
		if r.Intn(3) == 0 {
			a = a.nth(1 + r.Intn(3))
		}
		return a
	}
	return ref{}
}

// event is a new event, or a recent one again (traces repeat), or one
// that differs from a recent one in one word of its record.
func (g *eventGen) event() testEvent {
	r := g.rng
	if k := r.Intn(10); k < 4 && len(g.recent) > 0 {
		e := g.recent[r.Intn(len(g.recent))]
		switch k {
		case 0:
			e.a.n++
		case 1:
			e.a.obj, e.a.p = g.obj(), g.obj()
		case 2:
			e.g = uint64(1 + r.Intn(5))
		}
		return e
	}
	e := g.newEvent()
	g.recent = append(g.recent, e)
	if len(g.recent) > 20 {
		g.recent = g.recent[1:]
	}
	return e
}

func (g *eventGen) newEvent() testEvent {
	r := g.rng
	e := testEvent{g: uint64(1 + r.Intn(5)), op: op(r.Intn(len(opText))), a: g.ref(), loc: g.pick("", "a.go:1 F", "bank/account.go:12 (*Account).Withdraw")}
	switch r.Intn(40) {
	case 2, 3, 4, 5:
		e.k = kind(r.Intn(len(opText))+1) << 16
	case 6, 7:
		e.a = ref{how: howObj, p: g.obj(), tag: chanTag}
		e.k = kind(opGive+1)<<16 | room
	case 0:
		e.op, e.a = opName, lit(g.pick("main", "TestA", "g7"))
		e.a.n = r.Intn(2)
	case 1:
		e.op = opMeet
		if r.Intn(2) == 0 {
			e.g = 0
		}
	}
	return e
}

// The encoder against the reference: random events, each packed into a
// record as emit packs it, encoded, the stream read back; with a cache of
// a few slots for most seeds, so that lines are dropped and made again.
func TestEncoderAgainstReference(t *testing.T) {
	defer func(b int) { cacheBits = b }(cacheBits)
	var lines, made int
	for seed := int64(0); seed < int64(testflag.N(100, 1000)); seed++ {
		cacheBits = []int{14, 1, 3, 6}[seed%4]
		g := &eventGen{rng: rand.New(rand.NewSource(seed))}
		for i := 0; i < 1+g.rng.Intn(12); i++ {
			g.objs = append(g.objs, unsafe.Pointer(new([4]int)))
		}
		var out bytes.Buffer
		e := newEncoder(&out)
		want := newRefNames()
		var text strings.Builder
		for i := g.rng.Intn(2000); i >= 0; i-- {
			ev := g.event()
			var r record
			r.pack(ev.g, &ev.a, ev.loc)
			e.encode(&r, ev.kind())
			text.WriteString(want.line(ev))
		}
		e.lz.close()
		e.writeOut()
		got, err := gunzipPrefix(t, out.Bytes())
		if err != nil || got != text.String() {
			t.Fatalf("seed %d: %v\n got:\n%s\nwant:\n%s", seed, err, got, text.String())
		}
		lines += int(e.lz.n)
		made += e.made
	}
	if made < 1000 || lines-made < 1000 {
		t.Errorf("%d lines, %d made: the test exercises too little of the cache's hits or misses", lines, made)
	}
}
