package lang

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCompile: Compile never panics; it returns either a program whose
// automata keep the model's invariants, or a non-empty ErrorList whose
// every error has a position in the file. Seeds are the testdata programs.
//
//	go test ./lang -run '^$' -fuzz FuzzCompile -fuzztime 2m
func FuzzCompile(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.conc")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("thread T { read x, y; atomic { write x } }"))
	f.Add([]byte("proc p { choose { skip } or { sync l { read x; call p } } } thread T { loop { call p } }"))
	saved := maxStates
	maxStates = 100_000 // big enough for every seed, small enough to fuzz fast
	defer func() { maxStates = saved }()
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Compile("f.conc", src)
		if err != nil {
			checkFuzzErrors(t, p != nil, err)
			return
		}
		if p == nil {
			t.Fatal("nil program without error")
		}
		for _, th := range p.Threads {
			if err := checkInvariants(p, th.Auto); err != nil {
				t.Fatalf("thread %s: %v", th.Name, err)
			}
		}
	})
}

func checkFuzzErrors(t *testing.T, gotProgram bool, err error) {
	if gotProgram {
		t.Fatal("program returned with an error")
	}
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error %T is not a non-empty ErrorList: %v", err, err)
	}
	for _, e := range list {
		if e.Pos.Line <= 0 || e.Pos.Col <= 0 || e.Pos.File != "f.conc" {
			t.Fatalf("error without a valid position: %q at %+v", e.Msg, e.Pos)
		}
	}
	if err.Error() == "" {
		t.Fatal("empty message")
	}
}
