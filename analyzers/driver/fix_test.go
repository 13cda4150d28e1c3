package driver

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

const fixSrc = `package p

func f() {
	a := 1
	b := 2
	_, _ = a, b
}
`

// fixture writes fixSrc to a file and returns a Fixes that knows it, and a
// helper to record a finding with fixes made of (start, end, text) edits.
func fixture(t *testing.T) (string, *Fixes, func(rule string, line int, fixes ...[]Edit) finding.Finding) {
	t.Helper()
	return fixtureOf(t, fixSrc)
}

// fixtureOf is fixture with another source.
func fixtureOf(t *testing.T, fixSrc string) (string, *Fixes, func(rule string, line int, fixes ...[]Edit) finding.Finding) {
	t.Helper()
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	if err := os.WriteFile(name, []byte(fixSrc), 0o640); err != nil {
		t.Fatal(err)
	}
	fx := NewFixes()
	paths := newPathMapper(dir, nil)
	add := func(rule string, line int, fixes ...[]Edit) finding.Finding {
		f := finding.Finding{Rule: rules.ID(rule), Message: rule + " message", Pos: &finding.Position{File: "p.go", Line: line, Col: 1}}
		fset := token.NewFileSet()
		tf := fset.AddFile(name, -1, len(fixSrc))
		tf.SetLinesForContent([]byte(fixSrc))
		d := analysis.Diagnostic{Pos: tf.Pos(0)}
		for _, es := range fixes {
			sf := analysis.SuggestedFix{Message: "fix " + rule}
			for _, e := range es {
				sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: tf.Pos(e.Start), End: tf.Pos(e.End), NewText: []byte(e.New)})
			}
			d.SuggestedFixes = append(d.SuggestedFixes, sf)
		}
		fx.add(fset, paths, f, d)
		return f
	}
	return name, fx, add
}

func at(s string) int { return strings.Index(fixSrc, s) }

func TestPlanApply(t *testing.T) {
	name, fx, add := fixture(t)
	one := add("LA103", 4, []Edit{{Start: at("1"), End: at("1") + 1, New: "10"}})
	// The same finding again (a second package variant) with the same fix.
	add("LA103", 4, []Edit{{Start: at("1"), End: at("1") + 1, New: "10"}})
	two := add("LA104", 5, []Edit{{Start: at("2"), End: at("2") + 1, New: "20"}})
	p := fx.Plan([]finding.Finding{one, two})
	if len(p.Fixed) != 2 || len(p.Skipped) != 0 || len(p.Files) != 1 {
		t.Fatalf("plan: fixed %d, skipped %v, files %d", len(p.Fixed), p.Skipped, len(p.Files))
	}
	var diff bytes.Buffer
	if err := p.Diff(&diff); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(diff.String(), "-\ta := 1\n") || !strings.Contains(diff.String(), "+\ta := 10\n") || !strings.Contains(diff.String(), "--- a/p.go\n+++ b/p.go\n") {
		t.Errorf("diff:\n%s", diff.String())
	}
	if got, _ := os.ReadFile(name); string(got) != fixSrc {
		t.Fatal("Plan or Diff wrote the file")
	}
	written, err := p.Apply()
	if err != nil || len(written) != 1 {
		t.Fatalf("Apply: %v %v", written, err)
	}
	got, _ := os.ReadFile(name)
	if !strings.Contains(string(got), "a := 10\n\tb := 20\n") || strings.Contains(string(got), "1010") {
		t.Errorf("fixed file:\n%s", got)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(filepath.Dir(name)); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}

func TestPlanConflictsAndRefusals(t *testing.T) {
	name, fx, add := fixture(t)
	first := add("LA101", 4, []Edit{{Start: at("a := 1"), End: at("a := 1") + 6, New: "a := 3"}})
	overlap := add("LA103", 4, []Edit{{Start: at("1"), End: at("1") + 1, New: "9"}})
	sameInsert1 := add("LA104", 5, []Edit{{Start: at("b :="), End: at("b :="), New: "/*x*/"}})
	sameInsert2 := add("LA106", 5, []Edit{{Start: at("b :="), End: at("b :="), New: "/*y*/"}})
	alternatives := add("LA108", 6, []Edit{{Start: at("_, _"), End: at("_, _"), New: "// a\n"}}, []Edit{{Start: at("_, _"), End: at("_, _"), New: "// b\n"}})
	suppressed := add("LA110", 6, []Edit{{Start: at("}"), End: at("}") + 1, New: "} // s"}})
	suppressed.Suppressed = &finding.Suppression{Kind: "inSource", Justification: "test"}

	p := fx.Plan([]finding.Finding{first, overlap, sameInsert1, sameInsert2, alternatives, suppressed})
	if len(p.Fixed) != 2 || p.Fixed[0].Rule != "LA101" || p.Fixed[1].Rule != "LA104" {
		t.Errorf("fixed %v, want LA101 and LA104", p.Fixed)
	}
	why := map[rules.ID]string{}
	for _, s := range p.Skipped {
		why[s.Finding.Rule] = s.Reason
	}
	if !strings.Contains(why["LA103"], "conflict with the fix of LA101") || !strings.Contains(why["LA106"], "conflict with the fix of LA104") {
		t.Errorf("conflicts not reported: %v", why)
	}
	if !strings.Contains(why["LA108"], "alternative") {
		t.Errorf("alternatives not refused: %v", why)
	}
	if _, ok := why["LA110"]; ok || len(p.Skipped) != 3 {
		t.Errorf("skipped %v: the suppressed finding is neither fixed nor a skip", p.Skipped)
	}

	// A result that does not parse is refused, and so is its fix.
	broken := add("LA111", 3, []Edit{{Start: at("func f() {"), End: at("func f() {") + 10, New: "func f( {"}})
	p = fx.Plan([]finding.Finding{broken, first})
	if len(p.Fixed) != 1 || p.Fixed[0].Rule != "LA101" || len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0].Reason, "would not parse") {
		t.Errorf("unparsable fix: fixed %v skipped %v", p.Fixed, p.Skipped)
	}

	// A file changed since the analysis is not edited, and neither is a
	// file that changes between the plan and the write.
	p = fx.Plan([]finding.Finding{first})
	if err := os.WriteFile(name, []byte(fixSrc+"// edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if written, err := p.Apply(); err == nil || len(written) != 0 {
		t.Errorf("Apply over a changed file: written %v, err %v", written, err)
	}
	p = fx.Plan([]finding.Finding{first})
	if len(p.Fixed) != 0 || len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0].Reason, "changed since it was analysed") {
		t.Errorf("changed file: fixed %v skipped %v", p.Fixed, p.Skipped)
	}
	if got, _ := os.ReadFile(name); string(got) != fixSrc+"// edited\n" {
		t.Errorf("the changed file was written:\n%s", got)
	}
}

// TestPlanFormats: a gofmt'ed file stays gofmt'ed; one that was not is
// not reformatted beyond the fix.
func TestPlanFormats(t *testing.T) {
	_, fx, add := fixture(t)
	f := add("LA106", 4, []Edit{{Start: at("a := 1"), End: at("a := 1") + 6, New: "a   :=   1"}})
	p := fx.Plan([]finding.Finding{f})
	if len(p.Files) != 0 {
		t.Errorf("a fix that gofmt undoes still changes the file:\n%s", p.Files[0].New)
	}
	_, fx, add = fixture(t)
	f = add("LA106", 4, []Edit{{Start: at("a := 1"), End: at("a := 1") + 6, New: "a :=   10"}})
	if p := fx.Plan([]finding.Finding{f}); len(p.Files) != 1 || !strings.Contains(string(p.Files[0].New), "\ta := 10\n") {
		t.Errorf("the fix in a gofmt'ed file is not gofmt'ed: %v", p.Files)
	}

	// Not gofmt'ed (spacing, a one-line block, no tab indent): the fix
	// changes its own text and nothing else.
	const messy = "package p\n\nfunc f() {\n  a  :=  1\n  b := 2;  _, _ = a, b }\n"
	_, fx, add = fixtureOf(t, messy)
	one := strings.Index(messy, "1")
	f = add("LA106", 4, []Edit{{Start: one, End: one + 1, New: "10"}})
	p = fx.Plan([]finding.Finding{f})
	if want := strings.Replace(messy, "1", "10", 1); len(p.Files) != 1 || string(p.Files[0].New) != want {
		t.Errorf("an unformatted file was reformatted beyond the fix:\n%q\nwant\n%q", p.Files, want)
	}
}
