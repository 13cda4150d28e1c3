package driver

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/outfile"
	"github.com/lockaudit/lockaudit/report/finding"
)

// Fixes collects the suggested fixes of a run's findings (Options.Fixes),
// so `lockaudit vet -diff` can show them and `-fix` apply them. Fixes are
// recorded for every finding the analyzers report, before directives and
// baselines; the caller plans the findings it still reports.
type Fixes struct {
	mu     sync.Mutex
	byKey  map[string][]Fix    // finding key -> its distinct fixes
	hashes map[string][32]byte // absolute file name -> content hash when analysed
	rels   map[string]string   // absolute file name -> name in reports
	errs   map[string]error    // files that could not be read
}

// Fix is one suggested fix of a finding, in byte offsets.
type Fix struct {
	Message string
	Edits   []Edit
}

// Edit replaces [Start, End) of File (an absolute name) with New.
type Edit struct {
	File       string
	Start, End int
	New        string
}

// NewFixes returns an empty collection.
func NewFixes() *Fixes {
	return &Fixes{byKey: map[string][]Fix{}, hashes: map[string][32]byte{}, rels: map[string]string{}, errs: map[string]error{}}
}

// findingKey identifies a finding across the variants of a package (with
// and without its tests): rule, position and message.
func findingKey(f finding.Finding) string {
	return fmt.Sprintf("%s|%s|%s", f.Rule, f.Pos, f.Message)
}

// add records the fixes a diagnostic offers for finding f. The same
// finding seen again (a package analysed with and without its tests) adds
// nothing new unless its fixes differ, which makes them alternatives.
func (fx *Fixes) add(fset *token.FileSet, paths *pathMapper, f finding.Finding, d analysis.Diagnostic) {
	if len(d.SuggestedFixes) == 0 {
		return
	}
	var fixes []Fix
	for _, sf := range d.SuggestedFixes {
		fix := Fix{Message: sf.Message}
		ok := true
		for _, e := range sf.TextEdits {
			tf := fset.File(e.Pos)
			if tf == nil {
				ok = false
				break
			}
			end := e.End
			if !end.IsValid() {
				end = e.Pos
			}
			fix.Edits = append(fix.Edits, Edit{File: tf.Name(), Start: tf.Offset(e.Pos), End: tf.Offset(end), New: string(e.NewText)})
		}
		if ok && len(fix.Edits) > 0 {
			sortEdits(fix.Edits)
			fixes = append(fixes, fix)
		}
	}
	fx.mu.Lock()
	defer fx.mu.Unlock()
	for _, fix := range fixes {
		for _, e := range fix.Edits {
			fx.remember(e.File, paths)
		}
		key := findingKey(f)
		dup := false
		for _, have := range fx.byKey[key] {
			if sameFix(have, fix) {
				dup = true
			}
		}
		if !dup {
			fx.byKey[key] = append(fx.byKey[key], fix)
		}
	}
}

// remember hashes a file's content the first time a fix edits it, so a
// file changed after the analysis is not edited with stale offsets.
func (fx *Fixes) remember(name string, paths *pathMapper) {
	if _, ok := fx.hashes[name]; ok {
		return
	}
	if _, ok := fx.errs[name]; ok {
		return
	}
	data, err := os.ReadFile(name)
	if err != nil {
		fx.errs[name] = err
		return
	}
	fx.hashes[name] = sha256.Sum256(data)
	fx.rels[name] = paths.rel(name)
}

func sortEdits(es []Edit) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].File != es[j].File {
			return es[i].File < es[j].File
		}
		return es[i].Start < es[j].Start
	})
}

func sameFix(a, b Fix) bool {
	if len(a.Edits) != len(b.Edits) {
		return false
	}
	for i := range a.Edits {
		if a.Edits[i] != b.Edits[i] {
			return false
		}
	}
	return true
}

// Messages returns the messages of a finding's fixes.
func (fx *Fixes) Messages(f finding.Finding) []string {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	var out []string
	for _, fix := range fx.byKey[findingKey(f)] {
		out = append(out, fix.Message)
	}
	return out
}

// Plan is the result of applying the fixes of some findings in memory.
type Plan struct {
	Files   []FileChange      // the files that change, by name
	Fixed   []finding.Finding // the findings whose fix is in Files
	Skipped []Skip            // findings with a fix that is not applied, and why
}

// FileChange is one file's content before and after the fixes.
type FileChange struct {
	Name     string // absolute
	Rel      string // as reports name it
	Old, New []byte
}

// Skip is a finding whose fix is not applied.
type Skip struct {
	Finding finding.Finding
	Reason  string
}

// Plan computes the edits that fix the findings (in their order: the run's
// sorted order), one fix per finding. A finding that offers several
// alternative fixes is skipped (there is no choosing for the user), so is
// one whose edits overlap the edits of a fix already taken (a conflict:
// running -fix again applies it on the new code if it still applies), and
// one whose file changed since the analysis. Identical edits of two fixes
// are made once. A file whose fixed text does not parse is not changed and
// its fixes are skipped; a file that was gofmt-formatted is formatted
// again.
func (fx *Fixes) Plan(findings []finding.Finding) *Plan {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	drop := map[string]string{}
	for {
		p, bad := fx.plan(findings, drop)
		if len(bad) == 0 {
			return p
		}
		// A fix that cannot be made in one of its files is not made at
		// all: plan again without it.
		for k, why := range bad {
			drop[k] = why
		}
	}
}

// plan is one attempt of Plan; it returns the findings whose fixed file
// would not parse, to be dropped.
func (fx *Fixes) plan(findings []finding.Finding, drop map[string]string) (*Plan, map[string]string) {
	p := &Plan{}
	type taken struct {
		edit  Edit
		owner int // index into p.Fixed
	}
	byFile := map[string][]taken{}
	cannot := map[string]string{} // file -> why it cannot be edited
	content := map[string][]byte{}
	read := func(name string) ([]byte, string) {
		if why, ok := cannot[name]; ok {
			return nil, why
		}
		if data, ok := content[name]; ok {
			return data, ""
		}
		why := ""
		data, err := os.ReadFile(name)
		switch {
		case fx.errs[name] != nil:
			why = fmt.Sprintf("%s could not be read: %v", fx.rel(name), fx.errs[name])
		case err != nil:
			why = fmt.Sprintf("%s could not be read: %v", fx.rel(name), err)
		case sha256.Sum256(data) != fx.hashes[name]:
			why = fx.rel(name) + " changed since it was analysed"
		}
		if why != "" {
			cannot[name] = why
			return nil, why
		}
		content[name] = data
		return data, ""
	}
	seen := map[string]bool{}
outer:
	for _, f := range findings {
		key := findingKey(f)
		fixes := fx.byKey[key]
		if f.Suppressed != nil || len(fixes) == 0 || seen[key] {
			continue
		}
		seen[key] = true
		if why, ok := drop[key]; ok {
			p.Skipped = append(p.Skipped, Skip{f, why})
			continue
		}
		if len(fixes) > 1 {
			p.Skipped = append(p.Skipped, Skip{f, fmt.Sprintf("%d alternative fixes are offered; choose one by hand", len(fixes))})
			continue
		}
		fix := fixes[0]
		for _, e := range fix.Edits {
			data, why := read(e.File)
			if why != "" {
				p.Skipped = append(p.Skipped, Skip{f, why})
				continue outer
			}
			if e.Start < 0 || e.End < e.Start || e.End > len(data) {
				p.Skipped = append(p.Skipped, Skip{f, "its edit lies outside " + fx.rel(e.File)})
				continue outer
			}
			for _, t := range byFile[e.File] {
				if t.edit != e && overlaps(t.edit, e) {
					other := p.Fixed[t.owner]
					p.Skipped = append(p.Skipped, Skip{f, fmt.Sprintf("its edits conflict with the fix of %s at %s (run -fix again)", other.Rule, other.Where())})
					continue outer
				}
			}
		}
		owner := len(p.Fixed)
		p.Fixed = append(p.Fixed, f)
		for _, e := range fix.Edits {
			dup := false
			for _, t := range byFile[e.File] {
				dup = dup || t.edit == e // the same edit of two fixes is made once
			}
			if !dup {
				byFile[e.File] = append(byFile[e.File], taken{e, owner})
			}
		}
	}

	bad := map[string]string{}
	var names []string
	for name := range byFile {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ts := byFile[name]
		sort.SliceStable(ts, func(i, j int) bool { return ts[i].edit.Start < ts[j].edit.Start })
		old := content[name]
		var all []Edit
		for _, t := range ts {
			all = append(all, t.edit)
		}
		out := applyEdits(old, all)
		if err := parses(name, out); err != nil {
			// Blame the fixes that do not parse on their own; when each
			// does, the combination is at fault: keep the first.
			owners := map[int][]Edit{}
			var order []int
			for _, t := range ts {
				if owners[t.owner] == nil {
					order = append(order, t.owner)
				}
				owners[t.owner] = append(owners[t.owner], t.edit)
			}
			sort.Ints(order)
			blamed := false
			for _, o := range order {
				if e := parses(name, applyEdits(old, owners[o])); e != nil {
					bad[findingKey(p.Fixed[o])] = fmt.Sprintf("the fixed %s would not parse: %v", fx.rel(name), e)
					blamed = true
				}
			}
			if !blamed {
				for _, o := range order[1:] {
					bad[findingKey(p.Fixed[o])] = fmt.Sprintf("together with the fix of %s at %s, the fixed %s would not parse: %v", p.Fixed[order[0]].Rule, p.Fixed[order[0]].Where(), fx.rel(name), err)
				}
			}
			continue
		}
		if fmtOld, err := format.Source(old); err == nil && bytes.Equal(fmtOld, old) {
			if f, err := format.Source(out); err == nil {
				out = f // the file was gofmt'ed: keep it so
			}
		}
		if !bytes.Equal(out, old) {
			p.Files = append(p.Files, FileChange{Name: name, Rel: fx.rel(name), Old: old, New: out})
		}
	}
	return p, bad
}

func parses(name string, src []byte) error {
	_, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments|parser.SkipObjectResolution)
	return err
}

// applyEdits applies sorted, non-overlapping edits to src.
func applyEdits(src []byte, es []Edit) []byte {
	var b bytes.Buffer
	last := 0
	for _, e := range es {
		b.Write(src[last:e.Start])
		b.WriteString(e.New)
		last = e.End
	}
	b.Write(src[last:])
	return b.Bytes()
}

// overlaps reports whether two different edits of a file cannot both be
// made: their ranges overlap, an insertion falls inside the other's
// range, or both insert at one place (which text would come first?).
func overlaps(a, b Edit) bool {
	if a.File != b.File {
		return false
	}
	if a.Start == a.End && b.Start == b.End {
		return a.Start == b.Start
	}
	return a.Start < b.End && b.Start < a.End
}

func (fx *Fixes) rel(name string) string {
	if r, ok := fx.rels[name]; ok {
		return r
	}
	return filepath.ToSlash(name)
}

// Diff writes a unified diff of every file the plan changes (paths as
// reports name them, a/ and b/ prefixes, so `git apply` and `patch -p1`
// take it).
func (p *Plan) Diff(w io.Writer) error {
	for _, fc := range p.Files {
		if _, err := io.WriteString(w, unified("a/"+fc.Rel, "b/"+fc.Rel, fc.Old, fc.New)); err != nil {
			return err
		}
	}
	return nil
}

// Apply writes the changed files. Each is written whole or not at all
// (internal/outfile: a temporary file in its folder, synced and renamed
// over it, its mode kept); a source file that is a symbolic link is edited
// through its real path, so the link stays a link; every file is checked
// against its analysed content again just before. It returns the files
// written and the first error.
func (p *Plan) Apply() ([]string, error) {
	var done []string
	for _, fc := range p.Files {
		cur, err := os.ReadFile(fc.Name)
		if err != nil {
			return done, err
		}
		if !bytes.Equal(cur, fc.Old) {
			return done, fmt.Errorf("%s changed while fixing; not written", fc.Rel)
		}
		if err := outfile.WriteTarget(fc.Name, fc.New); err != nil {
			return done, fmt.Errorf("writing %s: %v", fc.Rel, err)
		}
		done = append(done, fc.Rel)
	}
	return done, nil
}

// String summarises a skip for stderr.
func (s Skip) String() string {
	return fmt.Sprintf("%s: %s not fixed: %s", s.Finding.Where(), s.Finding.Rule, s.Reason)
}
