package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
)

// Format names the summary files this package writes (--summary-out)
// and reads (conc merge): a version, so that a file of another is
// refused rather than misread.
const Format = "conc summary 1"

// file is a summary file: its format, then the summary.
type file struct {
	Format string `json:"format"`
	*Summary
}

// Write writes s as a summary file: indented JSON, one trace or group a
// few lines.
func Write(w io.Writer, s *Summary) error {
	b := bufio.NewWriter(w)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(file{Format, s}); err != nil {
		return err
	}
	return b.Flush()
}

// Read reads a summary file (name is for messages).
func Read(r io.Reader, name string) (*Summary, error) {
	f := file{Summary: &Summary{}}
	dec := json.NewDecoder(bufio.NewReader(r))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a summary (conc monitor or predict --summary-out writes one): %v", name, err)
	}
	if f.Format != Format {
		return nil, fmt.Errorf("%s: not a summary of this version of conc (format %q, want %q)", name, f.Format, Format)
	}
	if err := valid(f.Summary); err != nil {
		return nil, fmt.Errorf("%s: not a summary: %v", name, err)
	}
	if f.Traces == nil {
		f.Traces = []Trace{}
	}
	if f.Groups == nil {
		f.Groups = []Group{}
	}
	return f.Summary, nil
}

// MergeFiles reads the summary files at paths and merges them (conc
// merge).
func MergeFiles(paths []string) (*Summary, error) {
	m := NewMerger()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, cannotRead(err)
		}
		s, err := Read(f, p)
		f.Close()
		if err != nil {
			return nil, err
		}
		if err := m.Add(s); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
	}
	return m.Summary(), nil
}

// valid checks what the merge and the report rely on: a command, and
// verdicts and kinds they know.
func valid(s *Summary) error {
	if s.Command != "monitor" && s.Command != "predict --all" {
		return fmt.Errorf("command %q", s.Command)
	}
	for _, t := range s.Traces {
		if !slices.Contains(Verdicts, t.Verdict) {
			return fmt.Errorf("trace %s: verdict %q", t.Name, t.Verdict)
		}
	}
	for _, g := range s.Groups {
		if !slices.Contains(Kinds, g.Kind) {
			return fmt.Errorf("group %q: kind %q", g.Signature, g.Kind)
		}
	}
	return nil
}
