//go:build !purego

//lint:file-ignore U1000 the assembly uses these fields and constants (go_asm.h)

package trace

import (
	"unsafe"

	"github.com/conc-dev/conc/model"
)

// quickAsm: quickLines runs quickScan (quick_amd64.s).
const quickAsm = true

// quickCtx is what quickScan reads and updates; the assembly reaches its
// fields, and those of Event, threadKey, hashSlot and opShape, through the
// offsets the go tool writes to go_asm.h.
type quickCtx struct {
	p, stop  uintptr // the next line's address; a line in a 64-byte block reaching past stop is left
	evEnd    uintptr // the end of evs (quickScan sets it)
	blk      uintptr // where the 64 bytes whose newlines quickScan has start
	lineNo   int64   // lines decided so far (Stats.Lines)
	nested   int64   // inner begins taken (Stats.Nested)
	threads  *threadKey
	depth    unsafe.Pointer // *int32, per thread
	nDepth   uint64
	vars     unsafe.Pointer // *hashSlot: Vars' index
	varMask  uint64         // its slots less one (Table.mask)
	varNames unsafe.Pointer // *string: Vars' names
	locks    unsafe.Pointer // *hashSlot: Locks' index
	lockMask uint64
	owner    unsafe.Pointer // *int32, per lock
	count    unsafe.Pointer // *int32, per lock
	nOwner   uint64
	locs     unsafe.Pointer // *int32: Locs' decimal array
	nLocs    uint64
	spill    uint64 // a register the long names need
}

// quickScan's addressing assumes these sizes, and its dispatch that a
// read's and a write's kinds are adjacent, as are an acq's and a rel's:
// each pair of lines fails to compile unless its difference is exactly so.
var (
	_ [unsafe.Sizeof(hashSlot{}) - 16]struct{}
	_ [16 - unsafe.Sizeof(hashSlot{})]struct{}
	_ [unsafe.Sizeof(opShape{}) - 32]struct{}
	_ [32 - unsafe.Sizeof(opShape{})]struct{}
	_ [opWrite - opRead - 1]struct{}
	_ [1 - (opWrite - opRead)]struct{}
	_ [opRelease - opAcquire - 1]struct{}
	_ [1 - (opRelease - opAcquire)]struct{}
)

// The op kinds, for the assembly (go_asm.h has only this package's names).
const (
	opRead    = model.OpRead
	opWrite   = model.OpWrite
	opAcquire = model.OpAcquire
	opRelease = model.OpRelease
	opBegin   = model.OpBegin
	opEnd     = model.OpEnd
	seedXor   = hashSeed ^ mixXor // a short name's hash input, less its bytes
)

// quickScan is quickGo in assembly: it stores at most n events at evs and
// returns how many it stored.
//
//go:noescape
func quickScan(c *quickCtx, evs *Event, n int) int

// emptyIndex is where an index with no slot yet points quickScan: empty
// slots, which every probe finds first; two, as quickScan reads a name's
// first two slots at once.
var emptyIndex [2]hashSlot

// quickNative sets up quickScan's view of the Reader, runs it, and takes
// back what it changed.
func (r *Reader) quickNative(evs []Event) int {
	b := uintptr(unsafe.Pointer(unsafe.SliceData(r.buf)))
	c := quickCtx{
		p: b + uintptr(r.start), stop: b + uintptr(r.end-quickWindow), lineNo: r.stats.Lines,
		threads: &r.threadKeys[0],
		depth:   unsafe.Pointer(unsafe.SliceData(r.depth)), nDepth: uint64(len(r.depth)),
		owner: unsafe.Pointer(unsafe.SliceData(r.owner)), count: unsafe.Pointer(unsafe.SliceData(r.count)),
		nOwner: uint64(min(len(r.owner), len(r.count))),
		locs:   unsafe.Pointer(unsafe.SliceData(r.locs.small)), nLocs: uint64(len(r.locs.small)),
		varNames: unsafe.Pointer(unsafe.SliceData(r.vars.names)),
	}
	c.vars, c.varMask = indexOf(&r.vars)
	c.locks, c.lockMask = indexOf(&r.locks)
	n := quickScan(&c, unsafe.SliceData(evs), len(evs))
	r.start = int(c.p - b)
	r.stats.Lines, r.stats.Nested, r.stats.Events = c.lineNo, r.stats.Nested+c.nested, r.stats.Events+int64(n)
	return n
}

// indexOf is t's index and mask for quickScan.
func indexOf(t *Table) (unsafe.Pointer, uint64) {
	if len(t.index) == 0 {
		return unsafe.Pointer(&emptyIndex[0]), 0
	}
	return unsafe.Pointer(unsafe.SliceData(t.index)), t.mask()
}
