package predict

import "github.com/conc-dev/conc/predict/internal/proj"

// WitnessError is an engine's witness that does not replay: an internal
// error, never an answer. Every witness predict answers with passes the
// replay gate of the projection layer first (predict/internal/proj/gate.go).
type WitnessError = proj.WitnessError
