//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// quickScan takes the lines quickGo (quick.go) takes, with the same
// checks; read that first. It stops, leaving the line to fastLine,
// wherever quickGo does ("break lines" there is JMP done here), and
// besides at a lock name of eight bytes (quickGo takes those) and at a
// line in the last 64-byte block that ends before stop (quickWindow bytes
// before the data's end; quickGo stops at a line that starts past stop).
// A line quickScan leaves is decided by fastLine or parse, so where it
// stops changes no answer.
//
// Across lines:  R8 the quickCtx, SI the line, DI the next event,
//                R10 the lines decided, R9 the newlines ahead (a bit for
//                each newline in the 64 bytes from quickCtx.blk, cleared
//                as lines are taken).
// Within a line: R12 where the op must end (the newline, or the '|' of a
//                location), BX the op's kind up to the dispatch, R13 the
//                argument's first byte, and after the argument AX its
//                hash, R11 its key, CX its size, R14 the byte after it
//                (and BX its meta, on the long path). DX is scratch, and
//                the lookups reuse R13 and R14 once they are done with.
//
// Why it is shaped so, measured on BenchmarkReader (docs/traces.md):
// - quickGo spends about 230 instructions a line, most of them the Go
//   compiler's spills and bounds checks; this spends about 110.
// - It finds the newlines first, sixteen bytes to an SSE2 compare, so the
//   next line's start does not wait for this line's parse, and the core
//   can overlap the parses of several lines.
// - BSF leaves its destination as it was when the source is zero, so it
//   depends on the destination's last value; every BSF here is preceded
//   by zeroing its destination. Without that, each line's start waited
//   for the last line's index probe, and the loop ran 20 % slower.
// Two choices measured no gain on their own (before the BSF fix); they
// cost nothing either:
// - The op's kind decides the rest of the line, and a trace mixes kinds at
//   random, so that branch mispredicts about once a line whatever its
//   shape: it comes as soon as the kind is known, and each kind scans its
//   own argument (ARG).
// - A name's first two index slots are compared without a branch on which
//   of them holds it.
// The thread and op are written to the event slot as soon as they are
// known (the slot is scratch until the line is taken). Stores to the
// Reader's state (depth, owner, count) come only after every check of the
// line has passed. R15 is left alone: a global's address clobbers it when
// linking dynamically.

// MARKS sets the top bit of the bytes of x that equal pat's (each byte of
// pat is the same) in out, as zeroBytes does (only the lowest mark is
// exact), and sets Z when there is none.
#define MARKS(x, pat, out, tmp) \
	MOVQ pat, out; XORQ x, out; \
	MOVQ $0xfefefefefefefeff, tmp; ADDQ out, tmp; \
	NOTQ out; ANDQ tmp, out; \
	MOVQ $0x8080808080808080, tmp; ANDQ tmp, out

// EXACT is MARKS with every mark exact (no carry crosses a byte); it
// clobbers x.
#define EXACT(x, pat, out, tmp) \
	MOVQ pat, out; XORQ out, x; \
	MOVQ $0x7f7f7f7f7f7f7f7f, tmp; \
	MOVQ x, out; ANDQ tmp, out; ADDQ tmp, out; \
	ORQ x, out; ORQ tmp, out; NOTQ out; TESTQ out, out

// BEFORE finds the first byte of x equal to pat's, or goes to none: it
// leaves that byte's index in CX and keeps the bytes before it in x.
#define BEFORE(x, pat, tmp, none) \
	MARKS(x, pat, DX, tmp); \
	JZ none; \
	XORL CX, CX; BSFQ DX, CX; SHRQ $3, CX; \
	LEAQ lowMask<>(SB), tmp; ANDQ (tmp)(CX*8), x

// MIX is mix (table_hash.go) on AX, with c for mixXor: the folded 128-bit
// product of AX^c and mixMul. It uses DX.
#define MIX(c) \
	MOVQ c, DX; XORQ DX, AX; \
	MOVQ $const_mixMul, DX; MULQ DX; XORQ DX, AX

// DEPTH is the start of begin and end: the op must end the line, and the
// thread must have a depth. R14 is the depths, DX the thread, BX its depth.
#define DEPTH \
	CMPQ R13, R12; JNE done; \
	MOVL Event_Thread(DI), DX; \
	CMPQ DX, quickCtx_nDepth(R8); JCC done; \
	MOVQ quickCtx_depth(R8), R14; \
	MOVL (R14)(DX*4), BX

// NEXTLINE moves SI past the line's newline (R9's lowest bit), and clears
// that bit.
#define NEXTLINE \
	XORL DX, DX; BSFQ R9, DX; ADDQ quickCtx_blk(R8), DX; \
	LEAQ 1(DX), SI; \
	LEAQ -1(R9), DX; ANDQ DX, R9

#define BARS $0x7c7c7c7c7c7c7c7c
#define PARENS $0x2929292929292929
#define NEWLINES $0x0a0a0a0a0a0a0a0a

// ARG scans the argument at R13 up to ')' and hashes it as keyOf does,
// leaving the hash, key, size and the byte after it in AX, R11, CX and
// R14 (the key of a name under eight bytes, with its length in the top
// byte, is the hash's input). A name of eight bytes or more goes to long.
#define ARG(long) \
	MOVQ (R13), AX; \
	BEFORE(AX, PARENS, R14, long); \
	TESTQ CX, CX; JZ done; \
	LEAQ 1(R13)(CX*1), R14; \
	MOVQ CX, DX; SHLQ $56, DX; ORQ DX, AX; \
	MOVQ AX, R11; \
	MIX($const_seedXor)

// lowMask[n] keeps the first n bytes of a word (low, for n < 8).
DATA lowMask<>+0(SB)/8, $0
DATA lowMask<>+8(SB)/8, $0xff
DATA lowMask<>+16(SB)/8, $0xffff
DATA lowMask<>+24(SB)/8, $0xffffff
DATA lowMask<>+32(SB)/8, $0xffffffff
DATA lowMask<>+40(SB)/8, $0xffffffffff
DATA lowMask<>+48(SB)/8, $0xffffffffffff
DATA lowMask<>+56(SB)/8, $0xffffffffffffff
GLOBL lowMask<>(SB), RODATA|NOPTR, $64

// func quickScan(c *quickCtx, evs *Event, n int) int
TEXT ·quickScan(SB), NOSPLIT, $0-32
	MOVQ c+0(FP), R8
	MOVQ evs+8(FP), DI
	MOVQ n+16(FP), AX
	IMUL3Q $Event__size, AX, AX
	ADDQ DI, AX
	MOVQ AX, quickCtx_evEnd(R8)
	MOVQ quickCtx_p(R8), SI
	MOVQ quickCtx_lineNo(R8), R10
	LEAQ -64(SI), AX
	MOVQ AX, quickCtx_blk(R8)
	XORL R9, R9
	MOVQ NEWLINES, AX
	MOVQ AX, X4
	PUNPCKLQDQ X4, X4

line: // SI is before stop, as every newline R9 holds is (see refill)
	TESTQ R9, R9
	JEQ refill

newline:
	XORL R12, R12 // BSF keeps its destination for a zero source: without
	BSFQ R9, R12  // this, each line would wait for the last one's R12
	ADDQ quickCtx_blk(R8), R12

	// The thread: a name of one to seven bytes before the '|', found in
	// the cache with its length and the live mark.
	MOVQ (SI), AX
	BEFORE(AX, BARS, BX, done)
	MOVQ CX, BX
	SHLQ $56, BX
	ORQ AX, BX // the name and its length: threadSlot's input
	MOVQ $0x9E3779B97F4A7C15, DX
	IMULQ BX, DX
	SHRQ $(64-const_threadCacheBits), DX
	BTSQ $63, BX
	IMUL3Q $threadKey__size, DX, DX
	ADDQ quickCtx_threads(R8), DX
	CMPQ BX, threadKey_live(DX)
	JNE done
	MOVL threadKey_id(DX), BX
	MOVL BX, Event_Thread(DI)

	// The op: its shape from the perfect hash of its first two bytes.
	LEAQ 1(SI)(CX*1), R13
	MOVQ (R13), AX
	MOVWQZX AX, BX
	MOVQ $0xe4b06ce60741c7a9, DX
	IMULQ DX, BX
	SHRQ $60, BX
	SHLQ $5, BX // opShape__size is 32 (quick_amd64.go checks)
	LEAQ ·opShapes(SB), DX
	ADDQ BX, DX
	MOVQ opShape_mask(DX), BX
	ANDQ AX, BX
	CMPQ BX, opShape_prefix(DX)
	JNE done
	ADDQ opShape_size(DX), R13
	MOVBLZX opShape_kind(DX), BX
	MOVB BX, Event_Op(DI)

	// A location ends the line with a digit (an op ends it with ')', 'n'
	// or 'd'), and starts after its last '|'.
	MOVBLZX -1(R12), AX
	SUBL $0x30, AX
	CMPL AX, $9
	JLS loc
	MOVL $-1, Event_Loc(DI)

kind: // the op's kind, in BX
	LEAL -const_opRead(BX), DX
	CMPL DX, $1
	JLS access
	CMPL BX, $const_opBegin
	JEQ begin
	CMPL BX, $const_opEnd
	JEQ end
	LEAL -const_opAcquire(BX), DX
	CMPL DX, $1
	JLS lock
	JMP done

access: // Table.short on Vars, or long for a name of more than eight bytes
	ARG(long)
	CMPQ R14, R12
	JNE done

vars: // a name under eight bytes: AX its hash, R11 its key
	MOVQ quickCtx_varMask(R8), DX
	ANDQ AX, DX
	SHLQ $4, DX // hashSlot__size is 16 (quick_amd64.go checks)
	ADDQ quickCtx_vars(R8), DX

	// Its first two slots, without a branch on which of them holds it
	// (whether a name sits in its home slot is a coin toss no predictor
	// learns): R14 is the id+1 of the first if its key is R11, else of
	// the second, and Z tells whether either is.
	MOVL hashSlot_id(DX), R14
	CMPQ R11, hashSlot_key(DX)
	CMOVLNE (hashSlot__size+hashSlot_id)(DX), R14
	MOVQ (hashSlot__size+hashSlot_key)(DX), R13
	CMOVQEQ R11, R13
	CMPQ R11, R13
	JNE varslots
	DECL R14
	MOVL R14, Event_Target(DI)
	JMP emit

varslots: // neither of its first two slots: the loop, from the first
	MOVQ AX, BX
	SHRQ $32, BX
	ANDL $-256, BX
	ORL CX, BX // the meta

varprobe: // AX the hash, BX the meta, R11 the key
	MOVQ quickCtx_vars(R8), R14
	MOVQ quickCtx_varMask(R8), CX
	ANDQ CX, AX

varslot:
	MOVQ AX, DX
	SHLQ $4, DX
	ADDQ R14, DX
	CMPL BX, hashSlot_meta(DX)
	JNE varnext
	CMPQ R11, hashSlot_key(DX)
	JEQ found

varnext:
	CMPL hashSlot_id(DX), $0
	JEQ done
	INCQ AX
	ANDQ CX, AX
	JMP varslot

found: // DX is the slot
	MOVL hashSlot_id(DX), DX
	DECL DX
	MOVL DX, Event_Target(DI)
	JMP emit

long: // AX holds the first eight bytes, without a ')'
	MOVQ R12, quickCtx_spill(R8) // the long loop needs R12
	MOVQ AX, R14
	MOVQ $const_hashSeed, R12
	MOVQ R13, R11

longword: // R12 = h, R11 = o, AX = x: fold x in, load the next word
	LEAQ (const_quickName-8)(R13), BX
	CMPQ R11, BX
	JCC done // longer than quickName
	XORQ R12, AX
	MIX($const_mixXor)
	MOVQ AX, R12
	ADDQ $8, R11
	MOVQ (R11), AX
	BEFORE(AX, PARENS, BX, longword)
	XORQ R12, AX
	ADDQ CX, R11
	MOVQ R11, CX
	SUBQ R13, CX
	MOVQ CX, DX
	SHLQ $56, DX
	XORQ DX, AX
	MIX($const_mixXor)
	MOVQ AX, BX
	SHRQ $32, BX
	ANDL $-256, BX
	MOVL $9, DX
	CMPQ CX, DX
	CMOVQLT CX, DX
	ORL DX, BX
	MOVQ R14, R11
	LEAQ 1(R13)(CX*1), R14
	MOVQ quickCtx_spill(R8), R12
	CMPQ R14, R12
	JNE done
	CMPQ CX, $8
	JLS varprobe // eight bytes: the meta tells it from longer names

longname: // the slot's meta and key, and then the name's bytes, must match
	MOVQ quickCtx_vars(R8), R14
	ANDQ quickCtx_varMask(R8), AX
	MOVQ R9, quickCtx_spill(R8) // R9 and R12 are the compare's

longslot:
	MOVQ AX, DX
	SHLQ $4, DX
	ADDQ R14, DX
	MOVL hashSlot_id(DX), R12
	TESTL R12, R12
	JEQ done
	CMPL BX, hashSlot_meta(DX)
	JNE longnext
	CMPQ R11, hashSlot_key(DX)
	JNE longnext
	DECL R12
	SHLQ $4, R12
	ADDQ quickCtx_varNames(R8), R12
	CMPQ CX, 8(R12)
	JNE longnext
	MOVQ (R12), R12
	XORL R9, R9

longcmp: // whole words, then the last eight bytes (the name has more)
	LEAQ 8(R9), DX
	CMPQ DX, CX
	JCC longlast
	MOVQ (R12)(R9*1), DX
	CMPQ DX, (R13)(R9*1)
	JNE longnext
	ADDQ $8, R9
	JMP longcmp

longlast:
	MOVQ -8(R12)(CX*1), DX
	CMPQ DX, -8(R13)(CX*1)
	JNE longnext
	MOVQ quickCtx_spill(R8), R9
	MOVQ AX, DX
	SHLQ $4, DX
	ADDQ R14, DX
	JMP found

longnext:
	INCQ AX
	ANDQ quickCtx_varMask(R8), AX
	JMP longslot

lock: // Table.short on Locks, then the owner and count rules
	ARG(done)
	CMPQ R14, R12
	JNE done
	MOVQ quickCtx_locks(R8), R14
	MOVQ quickCtx_lockMask(R8), CX
	ANDQ CX, AX

lockslot: // a name under eight bytes: its key tells it
	MOVQ AX, DX
	SHLQ $4, DX
	ADDQ R14, DX
	CMPQ R11, hashSlot_key(DX)
	JEQ lockfound
	CMPL hashSlot_id(DX), $0
	JEQ done
	INCQ AX
	ANDQ CX, AX
	JMP lockslot

lockfound:
	MOVL hashSlot_id(DX), DX
	DECL DX
	CMPQ DX, quickCtx_nOwner(R8)
	JCC done // interned through Locks().Intern, no owner slot yet
	MOVQ quickCtx_owner(R8), R14
	MOVQ quickCtx_count(R8), R11
	MOVL Event_Thread(DI), BX
	CMPB Event_Op(DI), $const_opAcquire
	JNE release
	CMPL (R14)(DX*4), $-1
	JNE done
	MOVL BX, (R14)(DX*4)
	MOVL $1, (R11)(DX*4)
	MOVL DX, Event_Target(DI)
	JMP emit

release:
	CMPL (R14)(DX*4), BX
	JNE done
	CMPL (R11)(DX*4), $1
	JNE done
	MOVL $-1, (R14)(DX*4)
	MOVL $0, (R11)(DX*4)
	MOVL DX, Event_Target(DI)
	JMP emit

begin: // only a thread's outermost begin is an event
	DEPTH
	LEAL 1(BX), CX
	MOVL CX, (R14)(DX*4)
	MOVL $-1, Event_Target(DI)
	TESTL BX, BX
	JEQ emit
	INCQ quickCtx_nested(R8)
	JMP next

end: // and its end that closes it
	DEPTH
	TESTL BX, BX
	JEQ done // an end without begin: fastLine tells
	LEAL -1(BX), CX
	MOVL CX, (R14)(DX*4)
	MOVL $-1, Event_Target(DI)
	CMPL BX, $1
	JEQ emit

next: // a line decided without an event
	INCQ R10
	NEXTLINE
	JMP line

emit:
	INCQ R10
	MOVQ R10, Event_Line(DI)
	ADDQ $Event__size, DI
	NEXTLINE
	CMPQ DI, quickCtx_evEnd(R8)
	JCS line
	JMP done

refill: // the newlines of the next 64 bytes, all before stop: a line
	// that ends there has all its loads inside the data (quickWindow)
	MOVQ quickCtx_blk(R8), DX
	ADDQ $64, DX
	LEAQ 64(DX), AX
	CMPQ AX, quickCtx_stop(R8)
	JHI done
	MOVQ DX, quickCtx_blk(R8)
	MOVOU (DX), X0
	MOVOU 16(DX), X1
	MOVOU 32(DX), X2
	MOVOU 48(DX), X3
	PCMPEQB X4, X0
	PCMPEQB X4, X1
	PCMPEQB X4, X2
	PCMPEQB X4, X3
	PMOVMSKB X0, R9
	PMOVMSKB X1, AX
	SHLQ $16, AX
	ORQ AX, R9
	PMOVMSKB X2, AX
	SHLQ $32, AX
	ORQ AX, R9
	PMOVMSKB X3, AX
	SHLQ $48, AX
	ORQ AX, R9
	JEQ refill
	JMP newline

loc: // "|LOC\n" for a decimal LOC of one to five digits in Locs' array:
	// its '|' is the last among the line's last eight bytes
	MOVQ -8(R12), AX
	EXACT(AX, BARS, DX, R11)
	JZ done
	BSRQ DX, DX
	SHRQ $3, DX
	LEAQ -8(R12)(DX*1), DX
	MOVQ R12, CX
	SUBQ DX, CX
	DECQ CX
	JEQ done
	CMPQ CX, $5
	JHI done
	MOVQ DX, R12 // the op must end at the '|'
	MOVQ 1(DX), AX
	CMPQ CX, $1
	JEQ digits
	CMPB AX, $0x30
	JEQ done // a leading zero

digits: // pad the digits with '0' to eight bytes; all eight must be digits
	LEAQ lowMask<>(SB), DX
	MOVQ (DX)(CX*8), DX
	ANDQ DX, AX
	NOTQ DX
	MOVQ $0x3030303030303030, R14
	ANDQ R14, DX
	ORQ DX, AX
	MOVQ $0xf0f0f0f0f0f0f0f0, DX
	MOVQ AX, R11
	ANDQ DX, R11
	CMPQ R11, R14
	JNE done
	MOVQ $0x0606060606060606, R11
	ADDQ AX, R11
	ANDQ DX, R11
	CMPQ R11, R14
	JNE done
	SUBQ R14, AX
	SHLQ $3, CX
	NEGQ CX
	ADDQ $64, CX
	SHLQ CX, AX

	// decimal8
	MOVQ $0x0f000f000f000f00, DX
	MOVQ AX, R11
	ANDQ DX, R11
	SHRQ $8, R11
	MOVQ $0x000f000f000f000f, DX
	ANDQ DX, AX
	IMUL3Q $10, AX, AX
	ADDQ R11, AX
	MOVQ $0x00ff000000ff0000, DX
	MOVQ AX, R11
	ANDQ DX, R11
	SHRQ $16, R11
	MOVQ $0x000000ff000000ff, DX
	ANDQ DX, AX
	IMUL3Q $100, AX, AX
	ADDQ R11, AX
	MOVQ AX, R11
	SHRQ $32, R11
	ANDQ $0xffff, R11
	ANDQ $0xffff, AX
	IMUL3Q $10000, AX, AX
	ADDQ R11, AX

	CMPQ AX, quickCtx_nLocs(R8)
	JCC done
	MOVQ quickCtx_locs(R8), DX
	MOVL (DX)(AX*4), DX
	TESTL DX, DX
	JEQ done
	DECL DX
	MOVL DX, Event_Loc(DI)
	JMP kind

done:
	MOVQ SI, quickCtx_p(R8)
	MOVQ R10, quickCtx_lineNo(R8)
	MOVQ DI, AX
	SUBQ evs+8(FP), AX
	XORL DX, DX
	MOVQ $Event__size, CX
	DIVQ CX
	MOVQ AX, ret+24(FP)
	RET
