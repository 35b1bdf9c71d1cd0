//go:build go1.21

package rt

import (
	"strconv"
	"strings"
	"unsafe"
)

// Objects are numbered per type in the order the trace first meets them
// (1, 2, …). The tables hold the objects' addresses, which keeps them
// alive: a freed object's address is never taken for a new object's.
var (
	objs  = map[objKey]int{}
	count = map[string]int{}
	fixed = map[unsafe.Pointer]string{} // locks, channels, … by address
)

type objKey struct {
	typ string
	p   unsafe.Pointer
}

// names remembers the names varName and mapName built, by hint and
// address: looking a name up costs less than building it per event.
var names = map[objKey]string{}

// number is the object number of p among the objects of type typ; mu is
// held.
func number(typ string, p unsafe.Pointer) string {
	k := objKey{typ, p}
	n, ok := objs[k]
	if !ok {
		count[typ]++
		n = count[typ]
		objs[k] = n
	}
	return strconv.Itoa(n)
}

// pointer is the data word of an interface holding a pointer (or a map
// or a channel): the object's address.
func pointer(x any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]
}

// varName names a variable: hint is "pkg.T.f" for field f of the struct
// obj points to ("pkg.T.f#N", N the struct's number among the pkg.T's),
// or "pkg.v" for a package-level variable (obj nil); mu is held.
func varName(hint string, obj any) string {
	if obj == nil {
		return hint
	}
	k := objKey{hint, pointer(obj)}
	if name, ok := names[k]; ok {
		return name
	}
	typ := hint
	if i := strings.LastIndexByte(hint, '.'); i > 0 {
		typ = hint[:i]
	}
	name := hint + "#" + number(typ, k.p)
	names[k] = name
	return name
}

// fixedName names the object at p the first time it is met and keeps the
// name however it is reached later (a lock through a pointer, a channel
// passed around): hint and obj as for varName, or hint "" and kind for
// an object reached otherwise ("sync.Mutex#N"); mu is held.
func fixedName(p unsafe.Pointer, hint string, obj any, kind string) string {
	if name, ok := fixed[p]; ok {
		return name
	}
	name := kind + "#" + number(kind, p)
	if hint != "" {
		name = varName(hint, obj)
	}
	fixed[p] = name
	return name
}
