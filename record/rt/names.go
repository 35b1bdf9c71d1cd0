//go:build go1.21

package rt

import (
	"strconv"
	"strings"
	"unsafe"
)

// The encoder names the events' arguments and threads as it meets them,
// in the order of the trace, so objects are numbered per type in the
// order the trace first meets them (1, 2, …). The tables hold the
// objects' addresses, which keeps them alive: a freed object's address is
// never taken for a new object's. Only the encoder's goroutine uses them.
// The hints are the instrumented code's literals, at fixed addresses, so
// most tables are keyed by address, which costs less than by text (a
// hint made anew only makes another entry).
type namer struct {
	types   map[string]*numbers // by type: "pkg.T", "pkg.T.buf[]", "ch"
	typeOf  map[text]*numbers   // the type a hint names fields of
	elemsOf map[text]*numbers   // the type of the arrays and maps a hint reaches
	kinds   map[text]*numbers   // a kind's numbering
	names   map[nameKey]string  // what varName and mapName built
	fixed   map[unsafe.Pointer]string
	threads map[uint64]string // goroutine id → thread name
	unknown int               // threads named uN so far
}

// numbers numbers the objects of one type.
type numbers struct {
	count int
	of    map[unsafe.Pointer]int
}

// text is a string by address and length.
type text struct {
	p unsafe.Pointer
	n int
}

func textOf(s string) text { return text{unsafe.Pointer(unsafe.StringData(s)), len(s)} }

type nameKey struct {
	hint text
	p    unsafe.Pointer
	elem bool // a map's name (HINT[]#N), not a field's
}

func newNamer() namer {
	return namer{types: map[string]*numbers{}, typeOf: map[text]*numbers{}, elemsOf: map[text]*numbers{},
		kinds: map[text]*numbers{}, names: map[nameKey]string{}, fixed: map[unsafe.Pointer]string{},
		threads: map[uint64]string{}}
}

// pointer is the data word of an interface holding a pointer (or a map
// or a channel): the object's address.
func pointer(x any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]
}

// typ is the numbering of type name.
func (m *namer) typ(name string) *numbers {
	t := m.types[name]
	if t == nil {
		t = &numbers{of: map[unsafe.Pointer]int{}}
		m.types[name] = t
	}
	return t
}

// fieldsOf is the numbering of the objects whose fields hint names
// ("pkg.T.f": pkg.T's).
func (m *namer) fieldsOf(hint string) *numbers {
	k := textOf(hint)
	t := m.typeOf[k]
	if t == nil {
		name := hint
		if i := strings.LastIndexByte(hint, '.'); i > 0 {
			name = hint[:i]
		}
		t = m.typ(name)
		m.typeOf[k] = t
	}
	return t
}

// ofKind is the numbering of the objects of kind ("sync.Mutex", "ch").
func (m *namer) ofKind(kind string) *numbers {
	k := textOf(kind)
	t := m.kinds[k]
	if t == nil {
		t = m.typ(kind)
		m.kinds[k] = t
	}
	return t
}

// elemsThrough is the numbering of the arrays and maps reached through
// hint (type "HINT[]").
func (m *namer) elemsThrough(hint string) *numbers {
	k := textOf(hint)
	t := m.elemsOf[k]
	if t == nil {
		t = m.typ(hint + "[]")
		m.elemsOf[k] = t
	}
	return t
}

// number is the object number of p among t's objects.
func (t *numbers) number(p unsafe.Pointer) string {
	n, ok := t.of[p]
	if !ok {
		t.count++
		n = t.count
		t.of[p] = n
	}
	return strconv.Itoa(n)
}

// arg is the name a ref stands for ("" for none).
func (m *namer) arg(a *ref) string {
	switch a.how {
	case howLit:
		return a.s
	case howVar:
		return m.varName(a.s, a.obj)
	case howElem:
		return a.s + "#" + m.elemsThrough(a.s).number(a.p) + "[" + strconv.Itoa(a.n) + "]"
	case howMap:
		return m.mapName(a.p, a.s)
	case howObj:
		kind, tail := "", ""
		if a.tag != nil {
			kind, tail = a.tag.kind, a.tag.tail
		}
		name := m.fixedName(a.p, a.s, a.obj, kind) + tail
		if a.n > 0 {
			name += strconv.Itoa(a.n)
		}
		return name
	}
	return ""
}

// varName names a variable: hint is "pkg.T.f" for field f of the struct
// at obj ("pkg.T.f#N", N the struct's number among the pkg.T's), or
// "pkg.v" for a package-level variable (obj nil).
func (m *namer) varName(hint string, obj unsafe.Pointer) string {
	if obj == nil {
		return hint
	}
	k := nameKey{hint: textOf(hint), p: obj}
	if name, ok := m.names[k]; ok {
		return name
	}
	name := hint + "#" + m.fieldsOf(hint).number(obj)
	m.names[k] = name
	return name
}

// mapName names a map as a whole: its entries are one variable
// "HINT[]#N", N the map's number among those reached through hint.
func (m *namer) mapName(p unsafe.Pointer, hint string) string {
	k := nameKey{hint: textOf(hint), p: p, elem: true}
	if name, ok := m.names[k]; ok {
		return name
	}
	name := hint + "[]#" + m.elemsThrough(hint).number(p)
	m.names[k] = name
	return name
}

// fixedName names the object at p the first time it is met and keeps the
// name however it is reached later (a lock through a pointer, a channel
// passed around): hint and obj as for varName, or hint "" and kind for
// an object reached otherwise ("sync.Mutex#N", N its number among the
// objects of its kind so named).
func (m *namer) fixedName(p unsafe.Pointer, hint string, obj unsafe.Pointer, kind string) string {
	if name, ok := m.fixed[p]; ok {
		return name
	}
	var name string
	if hint != "" {
		name = m.varName(hint, obj)
	} else {
		name = kind + "#" + m.ofKind(kind).number(p)
	}
	m.fixed[p] = name
	return name
}

// thread is goroutine g's thread name: uN, in the order first seen,
// unless the runtime named it (nameThread).
func (m *namer) thread(g uint64) string {
	if name, ok := m.threads[g]; ok {
		return name
	}
	m.unknown++
	name := "u" + strconv.Itoa(m.unknown)
	m.threads[g] = name
	return name
}

// nameThread names goroutine g; if onlyNew, only when it has no name
// yet. It reports whether a goroutine already seen got a new name.
func (m *namer) nameThread(g uint64, name string, onlyNew bool) bool {
	old, seen := m.threads[g]
	if seen && (onlyNew || old == name) {
		return false
	}
	m.threads[g] = name
	return seen
}
