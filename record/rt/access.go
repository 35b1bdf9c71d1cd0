//go:build go1.21

package rt

import (
	"strconv"
	"unsafe"
)

// R records a read of the variable *p (named as varName says) and returns
// p: instrumented code reads (*R(&x.f, x, "pkg.T.f", loc)).
func R[T any](p *T, obj any, hint, loc string) *T {
	if on {
		mu.Lock()
		emit(self(), "r", varName(hint, obj), loc)
		mu.Unlock()
	}
	return p
}

// W records a write of the variable *p, just after the statement that
// wrote it.
func W[T any](p *T, obj any, hint, loc string) {
	if on {
		mu.Lock()
		emit(self(), "w", varName(hint, obj), loc)
		mu.Unlock()
	}
}

// elemName names element i of the array holding *p: "HINT#N[i]", N the
// array's number among those reached through hint; mu is held.
func elemName[T any](p *T, i int, hint string) string {
	base := unsafe.Add(unsafe.Pointer(p), -i*int(unsafe.Sizeof(*p)))
	return hint + "#" + number(hint+"[]", base) + "[" + strconv.Itoa(i) + "]"
}

// RI records a read of element i (at p) of an array or slice and returns p.
func RI[T any](p *T, i int, hint, loc string) *T {
	if on {
		mu.Lock()
		emit(self(), "r", elemName(p, i, hint), loc)
		mu.Unlock()
	}
	return p
}

// WI records a write of element i (at p) of an array or slice.
func WI[T any](p *T, i int, hint, loc string) {
	if on {
		mu.Lock()
		emit(self(), "w", elemName(p, i, hint), loc)
		mu.Unlock()
	}
}

// mapName names a map as a whole: its entries are one variable
// "HINT[]#N", N the map's number among those reached through hint.
func mapName(m any, hint string) string {
	k := objKey{hint + "[]", pointer(m)}
	if name, ok := names[k]; ok {
		return name
	}
	name := hint + "[]#" + number(k.typ, k.p)
	names[k] = name
	return name
}

// MR records a read of map m (any lookup, len, range) and returns it.
func MR[M any](m M, hint, loc string) M {
	if on {
		mu.Lock()
		emit(self(), "r", mapName(m, hint), loc)
		mu.Unlock()
	}
	return m
}

// MW records a write of map m (an assignment to an entry, delete, clear).
func MW[M any](m M, hint, loc string) {
	if on {
		mu.Lock()
		emit(self(), "w", mapName(m, hint), loc)
		mu.Unlock()
	}
}
