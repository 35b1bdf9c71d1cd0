//go:build go1.21

package rt

import "unsafe"

// R records a read of the variable *p (named as variable says) and
// returns p: instrumented code reads (*R(&x.f, x, "pkg.T.f", loc)).
func R[T any](p *T, obj any, hint, loc string) *T {
	if on {
		emit(self(), opR, variable(hint, obj), loc)
	}
	return p
}

// W records a write of the variable *p, just after the statement that
// wrote it.
func W[T any](p *T, obj any, hint, loc string) {
	if on {
		emit(self(), opW, variable(hint, obj), loc)
	}
}

// RW records a read then a write of the variable *p, just after a
// statement that read and wrote it (x++, x op= e): one record for both.
func RW[T any](p *T, obj any, hint, loc string) {
	if on {
		emit2(self(), opR, opW, 0, variable(hint, obj), loc)
	}
}

// elem is element i (at p) of the array it is in, reached through hint:
// "HINT#N[i]", N the array's number among those reached through hint.
func elem[T any](p *T, i int, hint string) ref {
	return element(unsafe.Add(unsafe.Pointer(p), -i*int(unsafe.Sizeof(*p))), i, hint)
}

// RI records a read of element i (at p) of an array or slice and returns p.
func RI[T any](p *T, i int, hint, loc string) *T {
	if on {
		emit(self(), opR, elem(p, i, hint), loc)
	}
	return p
}

// WI records a write of element i (at p) of an array or slice.
func WI[T any](p *T, i int, hint, loc string) {
	if on {
		emit(self(), opW, elem(p, i, hint), loc)
	}
}

// RIW records a read then a write of element i (at p) of an array or
// slice (s[i]++).
func RIW[T any](p *T, i int, hint, loc string) {
	if on {
		emit2(self(), opR, opW, 0, elem(p, i, hint), loc)
	}
}

// MR records a read of map m (any lookup, len, range) and returns it: a
// map's entries are one variable "HINT[]#N", N the map's number among
// those reached through hint.
func MR[M any](m M, hint, loc string) M {
	if on {
		emit(self(), opR, mapOf(pointer(m), hint), loc)
	}
	return m
}

// MW records a write of map m (an assignment to an entry, delete, clear).
func MW[M any](m M, hint, loc string) {
	if on {
		emit(self(), opW, mapOf(pointer(m), hint), loc)
	}
}

// MRW records a read then a write of map m (m[k]++, m[k] op= e).
func MRW[M any](m M, hint, loc string) {
	if on {
		emit2(self(), opR, opW, 0, mapOf(pointer(m), hint), loc)
	}
}
