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
type namer struct {
	objs    map[objKey]int
	count   map[string]int
	fixed   map[unsafe.Pointer]string // locks, channels, … by address
	names   map[objKey]string         // what varName and mapName built
	threads map[uint64]string         // goroutine id → thread name
	unknown int                       // threads named uN so far
}

type objKey struct {
	typ string
	p   unsafe.Pointer
}

func newNamer() namer {
	return namer{objs: map[objKey]int{}, count: map[string]int{}, fixed: map[unsafe.Pointer]string{},
		names: map[objKey]string{}, threads: map[uint64]string{}}
}

// pointer is the data word of an interface holding a pointer (or a map
// or a channel): the object's address.
func pointer(x any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]
}

// number is the object number of p among the objects of type typ.
func (m *namer) number(typ string, p unsafe.Pointer) string {
	k := objKey{typ, p}
	n, ok := m.objs[k]
	if !ok {
		m.count[typ]++
		n = m.count[typ]
		m.objs[k] = n
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
		return a.s + "#" + m.number(a.s+"[]", a.p) + "[" + strconv.Itoa(a.n) + "]"
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
	k := objKey{hint, obj}
	if name, ok := m.names[k]; ok {
		return name
	}
	typ := hint
	if i := strings.LastIndexByte(hint, '.'); i > 0 {
		typ = hint[:i]
	}
	name := hint + "#" + m.number(typ, obj)
	m.names[k] = name
	return name
}

// mapName names a map as a whole: its entries are one variable
// "HINT[]#N", N the map's number among those reached through hint.
func (m *namer) mapName(p unsafe.Pointer, hint string) string {
	k := objKey{hint + "[]", p}
	if name, ok := m.names[k]; ok {
		return name
	}
	name := hint + "[]#" + m.number(k.typ, k.p)
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
		name = kind + "#" + m.number(kind, p)
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
