package report

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/rules"
)

func TestExitCode(t *testing.T) {
	pos := &Position{File: "a.go", Line: 1, Col: 1}
	code := func(sev rules.Severity) Finding { return Finding{Rule: "LA103", Severity: sev, Pos: pos} }
	node := func(sev rules.Severity) Finding { return Finding{Rule: "LA201", Severity: sev, Node: "n:1"} }
	suppressed := code(rules.Error)
	suppressed.Suppressed = &Suppression{Kind: "inSource", Justification: "why"}
	verdict := func(rel, ext, lua Answer) *Verdict {
		v := NewVerdict()
		v.Paths[rules.NativeRelease].Safe, v.Paths[rules.NativeExtend].Safe, v.Paths[rules.LuaScripts].Safe = rel, ext, lua
		return v
	}
	uses := func(cmds ...rules.Command) []Use {
		var out []Use
		for _, c := range cmds {
			out = append(out, Use{Command: c})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		run  Run
		want int
	}{
		{"empty", Run{}, ExitOK},
		{"code error", Run{Findings: []Finding{code(rules.Error)}}, ExitFindings},
		{"code warning", Run{Findings: []Finding{code(rules.Warning)}}, ExitFindings},
		{"code info (lowered by config)", Run{Findings: []Finding{code(rules.Info)}}, ExitOK},
		{"suppressed", Run{Findings: []Finding{suppressed}}, ExitOK},
		{"node error", Run{Findings: []Finding{node(rules.Error)}}, ExitFindings},
		{"node warning", Run{Findings: []Finding{node(rules.Warning)}}, ExitOK},
		{"incomplete beats findings", Run{Errors: []Error{{Where: "p", Message: "m"}}, Findings: []Finding{code(rules.Error)}}, ExitFailed},
		{"used release unsafe", Run{Verdict: verdict(No, Yes, Yes), Uses: uses(rules.UseDELIFEQ)}, ExitFindings},
		{"unused release unsafe", Run{Verdict: verdict(No, Yes, Yes), Uses: uses(rules.UseIFEQ)}, ExitOK},
		{"delex decides by release", Run{Verdict: verdict(No, Yes, Yes), Uses: uses(rules.UseDELEX)}, ExitFindings},
		{"lua missing", Run{Verdict: verdict(Yes, Yes, No), Uses: uses(rules.UseLua)}, ExitFindings},
		{"extend unknown", Run{Verdict: verdict(Yes, Unknown, Yes), Uses: uses(rules.UseDELIFEQ, rules.UseIFEQ)}, ExitUnknown},
		{"unsafe beats unknown", Run{Verdict: verdict(Unknown, No, Yes), Uses: uses(rules.UseDELIFEQ, rules.UseIFEQ)}, ExitFindings},
		{"finding beats unknown", Run{Verdict: verdict(Unknown, Yes, Yes), Uses: uses(rules.UseDELIFEQ), Findings: []Finding{code(rules.Warning)}}, ExitFindings},
		{"unknown for unused command", Run{Verdict: verdict(Yes, Unknown, Unknown), Uses: uses(rules.UseDELIFEQ)}, ExitOK},
	} {
		if got := ExitCode(&tc.run); got != tc.want {
			t.Errorf("%s: ExitCode = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestWorse: combining two checks of a path, unsafe beats unknown beats
// safe, in either order.
func TestWorse(t *testing.T) {
	for _, tc := range []struct{ a, b, want Answer }{
		{Yes, Yes, Yes}, {Yes, Unknown, Unknown}, {Unknown, Yes, Unknown},
		{Unknown, No, No}, {No, Unknown, No}, {Yes, No, No}, {No, Yes, No}, {Unknown, Unknown, Unknown},
	} {
		if got := Worse(tc.a, tc.b); got != tc.want {
			t.Errorf("Worse(%s, %s) = %s, want %s", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestExitCodeFailOn: -fail-on moves the gate for findings only. error
// lets a code warning pass, warning fails a node warning, info fails an
// info finding; no gate passes an unsafe or unknown verdict or an
// incomplete run.
func TestExitCodeFailOn(t *testing.T) {
	pos := &Position{File: "a.go", Line: 1, Col: 1}
	code := func(sev rules.Severity) Finding { return Finding{Rule: "LA103", Severity: sev, Pos: pos} }
	node := func(sev rules.Severity) Finding { return Finding{Rule: "LA205", Severity: sev, Node: "n:1"} }
	unsafe := NewVerdict()
	unsafe.Paths[rules.NativeRelease].Safe = No
	unknown := NewVerdict()
	unknown.Paths[rules.NativeRelease].Safe = Unknown
	relied := []Use{{Command: rules.UseDELIFEQ}}
	for _, tc := range []struct {
		failOn string
		run    Run
		want   int
	}{
		{"", Run{Findings: []Finding{code(rules.Warning)}}, ExitFindings},
		{"error", Run{Findings: []Finding{code(rules.Warning)}}, ExitOK},
		{"error", Run{Findings: []Finding{node(rules.Error)}}, ExitFindings},
		{"", Run{Findings: []Finding{node(rules.Warning)}}, ExitOK},
		{"warning", Run{Findings: []Finding{node(rules.Warning)}}, ExitFindings},
		{"warning", Run{Findings: []Finding{code(rules.Info), node(rules.Info)}}, ExitOK},
		{"", Run{Findings: []Finding{node(rules.Info)}}, ExitOK},
		{"info", Run{Findings: []Finding{node(rules.Info)}}, ExitFindings},
		{"info", Run{Findings: []Finding{{Rule: "LA103", Severity: rules.Info, Pos: pos, Suppressed: &Suppression{Kind: "inSource", Justification: "why"}}}}, ExitOK},
		{"error", Run{Verdict: unsafe, Uses: relied}, ExitFindings},
		{"error", Run{Verdict: unknown, Uses: relied}, ExitUnknown},
		{"error", Run{Errors: []Error{{Where: "p", Message: "m"}}}, ExitFailed},
	} {
		tc.run.FailOn = tc.failOn
		if got := ExitCode(&tc.run); got != tc.want {
			t.Errorf("fail_on %q, %+v: ExitCode = %d, want %d", tc.failOn, tc.run.Findings, got, tc.want)
		}
	}
	if err := CheckFailOn("warn"); err == nil {
		t.Error("CheckFailOn accepts warn")
	}
	r := Run{Command: "vet", FailOn: "fatal"}
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "fail_on") {
		t.Errorf("Validate of fail_on fatal: %v", err)
	}
}
