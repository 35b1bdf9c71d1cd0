// Package tmain has its own TestMain, which returns instead of calling
// os.Exit.
package tmain

// Ready is set by TestMain.
var Ready bool
