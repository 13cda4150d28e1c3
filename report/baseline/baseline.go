// Package baseline records a run's code findings so that later runs report
// only new ones — the gradual-adoption path. A finding is keyed by rule,
// file and a hash of its normalized source line, not by line number, so
// edits elsewhere in the file do not invalidate the baseline.
package baseline

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/jsonstrict"
	"github.com/lockaudit/lockaudit/rules"
)

// Version is the baseline file format version.
const Version = 1

// File is the JSON form of a baseline.
type File struct {
	Version  int     `json:"version"`
	Tool     string  `json:"tool"`
	Findings []Entry `json:"findings"`
}

// Entry is one baselined finding. Line and Message are for the reader of
// the file; only Rule, File and Hash are matched.
type Entry struct {
	Rule    rules.ID `json:"rule"`
	File    string   `json:"file"`
	Hash    string   `json:"hash"`
	Line    int      `json:"line"`
	Message string   `json:"message"`
}

func (e Entry) key() string { return string(e.Rule) + "\x00" + e.File + "\x00" + e.Hash }

// Hash is the key part derived from the finding's source line
// (report.LineHash): whitespace is collapsed, so re-indenting keeps the key.
// Without a source line the message stands in.
func Hash(f report.Finding) string { return report.LineHash(f) }

// FromRun builds a baseline of the run's active code findings.
func FromRun(r *report.Run) *File {
	b := &File{Version: Version, Tool: "lockaudit", Findings: []Entry{}}
	for _, f := range r.Active() {
		if f.Pos == nil {
			continue // node findings belong to the fleet, not the code
		}
		b.Findings = append(b.Findings, Entry{Rule: f.Rule, File: f.Pos.File, Hash: Hash(f), Line: f.Pos.Line, Message: f.Message})
	}
	sort.SliceStable(b.Findings, func(i, j int) bool {
		x, y := b.Findings[i], b.Findings[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Rule < y.Rule
	})
	return b
}

// Write writes a baseline as indented JSON.
func (b *File) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// Load reads a baseline file; errors name the file and what is wrong.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading baseline: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes baseline JSON; path is used in errors.
func Parse(path string, data []byte) (*File, error) {
	var b File
	if err := jsonstrict.Decode(data, &b); err != nil {
		return nil, fmt.Errorf("%s: not a lockaudit baseline: %v", path, err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("%s: baseline version %d, this lockaudit reads version %d (write a new one with -write-baseline)", path, b.Version, Version)
	}
	// A baseline of another tool (or none) has keys that mean something
	// else: taking them would hide findings.
	if b.Tool != "lockaudit" {
		return nil, fmt.Errorf("%s: tool %q, not a lockaudit baseline (write one with -write-baseline)", path, b.Tool)
	}
	for i, e := range b.Findings {
		if e.Rule == "" || e.File == "" || e.Hash == "" {
			return nil, fmt.Errorf("%s: finding %d lacks rule, file or hash", path, i+1)
		}
	}
	return &b, nil
}

// Apply marks the run's code findings that the baseline already holds as
// suppressed (kind external), so only new findings count. Each baseline
// entry absorbs one finding: a second identical line added later is new.
func (b *File) Apply(r *report.Run, path string) {
	left := map[string]int{}
	for _, e := range b.Findings {
		left[e.key()]++
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Pos == nil || f.Suppressed != nil {
			continue
		}
		k := Entry{Rule: f.Rule, File: f.Pos.File, Hash: Hash(*f)}.key()
		if left[k] > 0 {
			left[k]--
			f.Suppressed = &report.Suppression{Kind: "external", Justification: "in baseline " + path}
		}
	}
}
