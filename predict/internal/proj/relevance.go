package proj

import "github.com/conc-dev/conc/profiles"

// Only letters that can conflict across threads matter: a chain (Lemma 3)
// leaves and enters every transaction on it by a conflict with another
// thread, and so do the interrupted thread's a and b. An access whose
// variable no other thread writes (a read) or touches at all (a write) can be
// dropped exactly; its transaction keeps its program order.

// Users is, per variable, the thread that writes (or accesses) it, or
// multiUser when two threads do, or noUser.
type Users struct {
	writer, accessor []int32
}

const (
	noUser    = -1
	multiUser = -2
)

func (s *Summary) Users() *Users {
	u := &Users{writer: make([]int32, len(s.Vars)), accessor: make([]int32, len(s.Vars))}
	for x := range u.writer {
		u.writer[x], u.accessor[x] = noUser, noUser
	}
	mark := func(tab []int32, x int, t int32) {
		switch tab[x] {
		case noUser:
			tab[x] = t
		case t, multiUser:
		default:
			tab[x] = multiUser
		}
	}
	for t, th := range s.Threads {
		for l, sp := range th.Span {
			if sp.First == 0 {
				continue
			}
			x := l / 2
			mark(u.accessor, x, int32(t))
			if l&1 == 1 {
				mark(u.writer, x, int32(t))
			}
		}
	}
	return u
}

// Relevant reports whether thread t's letter l conflicts with an access of
// another thread.
func (u *Users) Relevant(t int32, l profiles.Letter) bool {
	tab := u.accessor
	if !l.Write() {
		tab = u.writer
	}
	w := tab[l.Var()]
	return w == multiUser || (w >= 0 && w != t)
}

// varRelevant: a variable written by one thread and accessed by another.
func (u *Users) varRelevant(x int) bool {
	w, a := u.writer[x], u.accessor[x]
	return w != noUser && (a == multiUser || w == multiUser || a != w)
}
