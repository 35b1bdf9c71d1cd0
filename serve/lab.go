package serve

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/conc-dev/conc/bench"
	"github.com/conc-dev/conc/engines"
)

// LabLimits bound a lab sweep, so that one cannot hog the server: it runs
// in a check slot, and an engine that times out at one size is skipped at
// the larger ones (package bench).
type LabLimits struct {
	MaxSizes    int           // sizes in one sweep (default 8)
	MaxSize     int           // the largest n (default 64)
	MaxThreads  int           // the largest k (default 6), at most 3 values
	PerDecision time.Duration // one engine on one instance (default 2s)
	PerSweep    time.Duration // the whole sweep (default 20s)
}

func (l LabLimits) withDefaults() LabLimits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxSizes, 8)
	def(&l.MaxSize, 64)
	def(&l.MaxThreads, 6)
	if l.PerDecision <= 0 {
		l.PerDecision = 2 * time.Second
	}
	if l.PerSweep <= 0 {
		l.PerSweep = 20 * time.Second
	}
	return l
}

// labAnswer is GET /api/lab's answer: conc bench's table and fits, and its
// plot as SVG.
type labAnswer struct {
	Family string `json:"family"`
	N      string `json:"n"` // what n counts
	K      string `json:"k"` // what k counts
	Table  string `json:"table"`
	Fits   string `json:"fits"`
	SVG    string `json:"svg"`
}

// lab is GET /api/lab: a conc bench sweep of family over sizes (and
// threads) with engines, bounded by LabLimits.
func (s *server) lab(w http.ResponseWriter, r *http.Request) {
	spec, metric, err := s.labSpec(r)
	if err != nil {
		writeErrors(w, http.StatusBadRequest, apiError{Message: err.Error()})
		return
	}
	if !s.takeSlot(w, r) {
		return
	}
	defer s.slots.release()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Lab.PerSweep)
	defer cancel()
	points, err := bench.Run(ctx, spec, nil)
	if err != nil {
		writeErrors(w, http.StatusBadRequest, apiError{Message: err.Error()})
		return
	}
	ans, err := labResult(spec, metric, points)
	if err != nil {
		writeErrors(w, http.StatusInternalServerError, apiError{Message: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

// labResult renders a sweep's points as conc bench does.
func labResult(spec bench.Spec, metric string, points []bench.Point) (*labAnswer, error) {
	axis, _, _ := bench.LookupAxis(spec.Family)
	ans := &labAnswer{Family: spec.Family, N: axis.N, K: axis.K}
	var table, fits, svg strings.Builder
	if err := bench.WriteTable(&table, points); err != nil {
		return nil, err
	}
	if err := bench.WriteFits(&fits, bench.Fits(points)); err != nil {
		return nil, err
	}
	// Title and axis as conc bench --plot draws them (bench.Request.Report).
	o := bench.PlotOptions{Title: bench.DefaultTitle(spec.Family, spec.Engines), Metric: metric, XLabel: "n = " + axis.N}
	if err := bench.WritePlot(&svg, "svg", points, o); err != nil {
		return nil, err
	}
	ans.Table, ans.Fits, ans.SVG = table.String(), fits.String(), svg.String()
	return ans, nil
}

// labSpec reads a sweep from the query: family, engines, sizes, threads,
// metric (conc bench's flags of those names).
func (s *server) labSpec(r *http.Request) (bench.Spec, string, error) {
	v, lim := r.URL.Query(), s.cfg.Lab
	if err := knownParams(v, "family", "engines", "sizes", "threads", "metric"); err != nil {
		return bench.Spec{}, "", err
	}
	spec := bench.Spec{Family: v.Get("family"), Timeout: lim.PerDecision, Repeat: 1, Seed: 1}
	axis, _, err := bench.LookupAxis(spec.Family)
	if err != nil {
		return spec, "", err
	}
	for _, name := range strings.Split(v.Get("engines"), ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if _, err := engines.Lookup(name); err != nil {
			return spec, "", fmt.Errorf("engines: %v", err)
		}
		spec.Engines = append(spec.Engines, name)
	}
	if len(spec.Engines) == 0 {
		return spec, "", fmt.Errorf("engines: want at least one engine (have %s)", strings.Join(engines.Names(), ", "))
	}
	if spec.Sizes, err = counts("sizes", v.Get("sizes"), axis.Sizes, lim.MaxSizes, lim.MaxSize); err != nil {
		return spec, "", err
	}
	if spec.Threads, err = counts("threads", v.Get("threads"), nil, 3, lim.MaxThreads); err != nil {
		return spec, "", err
	}
	if err := axis.CheckThreads(spec.Family, spec.Threads); err != nil {
		return spec, "", err
	}
	metric := v.Get("metric")
	switch metric {
	case "": // the engine's counted work, exact however loaded the server is
		metric = "states"
	case "time", "states":
	default:
		return spec, "", fmt.Errorf("metric %q: want states or time", metric)
	}
	return spec, metric, nil
}

// counts parses a comma-separated list of at most most counts from 1 to
// top; empty gives def, cut to the limits.
func counts(name, s string, def []int, most, top int) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		var out []int
		for _, n := range def {
			if n <= top && len(out) < most {
				out = append(out, n)
			}
		}
		return out, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > most {
		return nil, fmt.Errorf("%s: at most %d values here (the lab shares the server)", name, most)
	}
	var out []int
	for _, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > top {
			return nil, fmt.Errorf("%s: %q is not a count from 1 to %d (the lab shares the server)", name, p, top)
		}
		out = append(out, n)
	}
	return out, nil
}

// labFamily is one family the lab can sweep.
type labFamily struct {
	Name     string `json:"name"`
	N        string `json:"n"`
	K        string `json:"k"`
	MinK     int    `json:"min_k"`
	DefaultK int    `json:"default_k"`
	Sizes    []int  `json:"sizes"`
}

// labFamilies is GET /api/lab/families: conc bench's families, with what
// n and k count and the default sizes (within the lab's limits).
func (s *server) labFamilies(w http.ResponseWriter, _ *http.Request) {
	var out []labFamily
	for _, name := range bench.AxisNames() {
		a, _, _ := bench.LookupAxis(name)
		sizes, _ := counts("sizes", "", a.Sizes, s.cfg.Lab.MaxSizes, s.cfg.Lab.MaxSize)
		out = append(out, labFamily{Name: name, N: a.N, K: a.K, MinK: a.MinK, DefaultK: a.DefaultK, Sizes: sizes})
	}
	writeJSON(w, http.StatusOK, out)
}
