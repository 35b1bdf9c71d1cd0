// Package tuning holds the limits of predict that its tests shrink, so
// that small traces reach them. It is predict.Options' Tuning: being
// internal, only predict's packages (predict, predict/all and their tests)
// name it, and the zero value is what the command runs with.
package tuning

// Limits are predict's own limits; a zero field is the default.
type Limits struct {
	// MaxTable bounds the memory the lock-aware engine may spend on its
	// per-state tables; a larger reduced projection is unknown (exit 3)
	// rather than a search that cannot fit. 0 means
	// predict.DefaultMaxTable.
	MaxTable int64
	// MaxNest bounds step 5c's first pass; 0 means nested.MaxSize.
	MaxNest int64
	// Budget is the state limit the lock-aware search gets by default
	// (without --max-states or --timeout); 0 means
	// predict.DefaultMaxStates.
	Budget int64
	// Deepen makes the lock-free scan search short chains first whatever
	// the thread count (internal/chain/deepen.go), so that small random
	// traces test it.
	Deepen bool
	// ChainBudget replaces predict.DefaultChainStates (0: it applies).
	ChainBudget int64
	// LineShift is added to every event's line as it is read, so that
	// tests reach lines past 2³² without reading as many.
	LineShift int64
	// ViewBudget replaces predict.DefaultViewWork (0: it applies), and
	// ViewGrid the cells of the view criterion's grid (0: blocks' bound).
	ViewBudget, ViewGrid int64
}
