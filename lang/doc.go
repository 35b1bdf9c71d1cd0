// Package lang compiles .conc programs (docs/spec.md §2) into the program model of
// Farzan and Madhusudan's Section 2: one finite automaton (A_T) per thread,
// or a pushdown system (P_T) when procedures recurse, over the events begin,
// end, read, write, acquire and release. Compile is the only entry point:
// it returns a *model.Program, or a nil program and an ErrorList holding
// every static error, each at file:line:col.
//
// # Grammar
//
//	program  := decl*                            (";" allowed between decls)
//	decl     := "vars" ident ("," ident)* | "locks" ident ("," ident)*
//	          | "proc" ident block
//	          | "thread" ident ("[" int "]")? (block | automaton)
//	block    := "{" stmt* "}"                    (";" allowed between stmts)
//	stmt     := ("read" | "write") ident ("," ident)*
//	          | ("acquire" | "release") ident | "sync" ident block
//	          | "atomic" block | "loop" block | "repeat" int block
//	          | "choose" block ("or" block)+ | "call" ident | "skip"
//	automaton:= "automaton" "{" "init" ident edge* "}"
//	edge     := ident "->" ident ":" label ("/" ("push" | "pop") ident)?
//	label    := ("read" | "write" | "acquire" | "release") ident
//	          | "begin" | "end" | "skip"
//
// Comments are // and /* */. Keywords are reserved. Columns count
// characters (runes) from 1, as editors show them. A UTF-8 byte-order mark
// opening the file is skipped (line 1, column 1 is the character after it).
//
// Declarations are all or nothing: a file with no vars and no locks line
// declares its variables and locks by use; a file with either must declare
// every variable and every lock it uses (in statements and in automaton
// labels), and each use of an undeclared name is an error at the use. The
// whole language, by example, is docs/language.md.
//
// The grammar is participle's: the struct tags of ast.go. Declarations and
// automaton blocks are parsed by participle. Statement blocks are parsed by
// hand (stmtlist.go) into the very nodes the tags describe, failing with the
// same errors, which a test checks statement by statement against
// participle's own parse: participle costs microseconds and some hundred
// bytes a token and caps a repetition at 10^6, while the engines are
// measured on straight-line threads of 10^7 events. The scanner hands each
// top-level block to the parser as a single token (lexer.go), so a long
// thread never becomes a token array. Compiling costs about a microsecond
// of CPU per event (BenchmarkCompileStraightLine) and memory stays linear.
//
// After a syntax error the parser resumes at the next declaration keyword,
// so each declaration group reports its first syntax error. Lexical errors
// (bad characters, unterminated comments) are all reported, and then
// nothing else. When there are syntax errors, nothing else is checked.
//
// # Compilation
//
// Every program point gets a context: whether it is inside a transaction,
// and the sorted set of locks held. Contexts must not depend on the path
// (the model's InTxn and Held), which is checked where paths meet: loop
// heads, choose joins, automaton states, recursive procedure returns.
//
//   - read/write outside a transaction is a unary transaction: begin;
//     access; end, all three at the name's position. "read x, y" is one
//     event per name, each at its name.
//   - The outermost atomic block is begin (at "atomic"), body, end (at the
//     block's closing brace). Nested atomic blocks add nothing (flattened).
//   - acquire/release events sit at the lock's name; sync l {B} is acquire
//     (at l), B, release (at the closing brace). Lock events are never
//     wrapped in transactions. Acquiring a held lock or releasing one not
//     held is an error.
//   - Straight-line code is a chain without epsilon edges. A loop's head is
//     the current state when nothing leaves it yet and it is neither an
//     enclosing loop's head nor a choose's start (else a fresh state reached
//     by epsilon), and the body's end is merged into the head; a choose
//     joins its branch ends by merging those that nothing leaves yet, and by
//     epsilon edges otherwise. So epsilon edges appear only where a loop or
//     choose starts or ends at a state that already branches. A loop whose
//     body has no event compiles to nothing.
//   - repeat n unrolls the body n times (n ≤ 1,000,000). A body that adds no
//     state is unrolled once.
//   - thread W[n] is n threads W[0]..W[n-1] sharing one *model.Automaton;
//     Thread.Pos is the "thread" keyword. Program.Vars and Program.Locks are
//     in order of declaration, or of first use in source order.
//
// Calls. A procedure that is not on a call cycle is inlined at each call,
// compiled in the caller's context. A procedure on a cycle (recursive,
// possibly mutually) is compiled once per context it is called in; a call
// pushes a fresh return symbol (one per call site and context, named
// "p from file:line:col") and moves by epsilon to the copy's entry, and the
// copy's end pops it back to the return point (the pop edge sits at the
// procedure's closing brace). Decision: a recursive procedure must return
// in the context it was called in (same transaction status, same locks),
// or it is an error at the procedure's name; non-recursive procedures may
// change the context (e.g. a lock helper that only acquires). An error found
// inside a procedure is reported at the procedure's text and ends with
// "(called at line:col)", the innermost call that compiled it.
//
// Automaton threads. States are named by use, numbered breadth-first from
// init (edges in source order), and keep their names in Automaton.Names
// (states added inside an expanded access are named after their source with
// primes). Contexts are propagated breadth-first from init, push and pop
// treated as plain edges (a sound over-approximation of the reachable
// pairs). begin inside a transaction, end outside one, invalid lock events,
// a state reached in two contexts, a state unreachable from init, an init
// state no edge mentions (so an automaton needs an edge: the thread that
// does nothing is "thread T { }"), and duplicate edges are errors. An access leaving
// a state outside transactions becomes begin; access; end through two new
// states, its stack operation on the begin edge so a pop still guards the
// whole access. skip is an epsilon edge.
//
// Size. A thread's automaton may have at most 30,000,000 states. Before
// building, an upper bound is computed from the syntax (repeat counts and
// inlined calls multiply), so exponential inlining fails at once with
// "thread T is too large"; copies of recursive procedures are checked as
// they are built. Blocks may nest at most 10,000 deep, which keeps every
// recursion over the syntax tree far from Go's stack limit.
package lang
