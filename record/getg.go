package record

import (
	"path/filepath"
	"strconv"
)

// getgAsm is, per architecture, the assembly of _concGetg: the running
// goroutine's g, which the runtime keeps in thread-local storage (amd64)
// or in register g (arm64); the technique of github.com/petermattis/goid.
var getgAsm = map[string]string{
	"amd64": "\tMOVQ (TLS), AX\n\tMOVQ AX, ret+0(FP)\n",
	"arm64": "\tMOVD g, ret+0(FP)\n",
}

// addGetg gives the package under test an assembly getg and an init
// that hands it to the runtime, which then reads goroutine ids from the
// g instead of printing the stack header (docs/record.md, "Cost"). The
// files go into the package's own directory: the assembler runs there,
// and the runtime's directory exists only in the overlay. Elsewhere
// than gc on amd64 and arm64 the Go file is not built and ids stay slow.
func addGetg(tmp string, t *Target, rt string, repl map[string]string) error {
	src := "//go:build go1.21 && gc && (amd64 || arm64)\n\npackage " + t.name + "\n\nimport (\n\t\"unsafe\"\n\n\t_concrt " +
		strconv.Quote(rt) + "\n)\n\nfunc _concGetg() unsafe.Pointer\n\nfunc init() { _concrt.SetGetg(_concGetg) }\n"
	files := map[string]string{"zz_concrecord_getg.go": src}
	for arch, body := range getgAsm {
		files["zz_concrecord_getg_"+arch+".s"] = "//go:build gc\n\n#include \"textflag.h\"\n\nTEXT ·_concGetg(SB),NOSPLIT,$0-8\n" + body + "\tRET\n"
	}
	for name, text := range files {
		dst := filepath.Join(tmp, "src", strconv.Itoa(len(repl))+"_"+name)
		if err := writeFile(dst, []byte(text)); err != nil {
			return err
		}
		repl[filepath.Join(t.Dir, name)] = dst
	}
	return nil
}
