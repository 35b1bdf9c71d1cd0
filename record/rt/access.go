//go:build go1.21

package rt

import "unsafe"

// R records a read of the variable *p (named as variable says) and
// returns p: instrumented code reads (*R(&x.f, x, "pkg.T.f", loc)).
func R[T any](p *T, obj any, hint, loc string) *T {
	if on {
		a := variable(hint, obj)
		emit(self(), opR, &a, loc)
	}
	return p
}

// W records a write of the variable *p, just after the statement that
// wrote it.
func W[T any](p *T, obj any, hint, loc string) {
	if on {
		a := variable(hint, obj)
		emit(self(), opW, &a, loc)
	}
}

// RW records a read then a write of the variable *p, just after a
// statement that read and wrote it (x++, x op= e): one record for both.
func RW[T any](p *T, obj any, hint, loc string) {
	if on {
		a := variable(hint, obj)
		emit2(self(), opR, opW, 0, &a, loc)
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
		a := elem(p, i, hint)
		emit(self(), opR, &a, loc)
	}
	return p
}

// WI records a write of element i (at p) of an array or slice.
func WI[T any](p *T, i int, hint, loc string) {
	if on {
		a := elem(p, i, hint)
		emit(self(), opW, &a, loc)
	}
}

// RIW records a read then a write of element i (at p) of an array or
// slice (s[i]++).
func RIW[T any](p *T, i int, hint, loc string) {
	if on {
		a := elem(p, i, hint)
		emit2(self(), opR, opW, 0, &a, loc)
	}
}

// MR records a read of map m (any lookup, len, range) and returns it: a
// map's entries are one variable "HINT[]#N", N the map's number among
// those reached through hint.
func MR[M any](m M, hint, loc string) M {
	if on {
		a := mapOf(pointer(m), hint)
		emit(self(), opR, &a, loc)
	}
	return m
}

// MW records a write of map m (an assignment to an entry, delete, clear).
func MW[M any](m M, hint, loc string) {
	if on {
		a := mapOf(pointer(m), hint)
		emit(self(), opW, &a, loc)
	}
}

// MRW records a read then a write of map m (m[k]++, m[k] op= e).
func MRW[M any](m M, hint, loc string) {
	if on {
		a := mapOf(pointer(m), hint)
		emit2(self(), opR, opW, 0, &a, loc)
	}
}
