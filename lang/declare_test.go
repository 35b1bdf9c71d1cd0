package lang

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDeclarationRule: a typo in a lock's name. With "vars x" and no locks
// line, "sync mm" (for m) declared by use would be a second lock, and
// change the verdict; so a file that declares anything declares
// everything, and every use of an undeclared name is an error at the use.
func TestDeclarationRule(t *testing.T) {
	src := "vars x\n" +
		"thread A { sync m { read x; write x } }\n" +
		"thread B { sync mm { write x }; acquire mm; release mm }\n"
	require.Equal(t, []string{
		"t.conc:2:17: undeclared lock m (the file declares variables, so every lock must be declared)",
		"t.conc:3:17: undeclared lock mm (the file declares variables, so every lock must be declared)",
		"t.conc:3:41: undeclared lock mm (the file declares variables, so every lock must be declared)",
		"t.conc:3:53: undeclared lock mm (the file declares variables, so every lock must be declared)",
	}, compileErrors(t, src))

	// Declared, the lock is fine and the typo is the one error.
	require.Equal(t, []string{"t.conc:3:17: undeclared lock mm", "t.conc:3:41: undeclared lock mm", "t.conc:3:53: undeclared lock mm"},
		compileErrors(t, "locks m; "+src))

	// Without any declaration, names are declared by use.
	p := mustCompile(t, "thread A { sync m { read x; write x } }\nthread B { sync mm { write x } }")
	require.Equal(t, []string{"m", "mm"}, p.Locks)
	require.Equal(t, []string{"x"}, p.Vars)
}
