package report

import (
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
