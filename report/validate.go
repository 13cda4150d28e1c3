package report

import (
	"fmt"
	"slices"
	"strings"
)

// Allowed values of the run's closed fields, as the JSON form documents
// them. ExitCode and the renderers read these fields by value: a value
// outside its set ("UNSAFE", "", "bogus") would be read as none of them
// and fail open, so Validate refuses it.
var (
	commands         = []string{"vet", "probe", "audit", "preflight", "scan", "conform"}
	releaseVerdicts  = []string{Safe, Unsafe, Unknown}
	luaVerdicts      = []string{Available, Missing, Unknown}
	roles            = []string{"primary", "replica", "sentinel", Unknown}
	promotableValues = []string{Yes, No, Manual, Unknown}
	servers          = []string{"valkey", "redis", Unknown}
	answers          = []string{Yes, No, Unknown}
	useCommands      = []string{"delifeq", "delex", "ifeq", "lua"}
	suppressionKinds = []string{"inSource", "external"}
	stepStatuses     = []string{StepPass, StepFail, StepMissing, StepSkipped, StepError}
)

// verdictOfRule ties the error findings of the fleet to the verdict they
// make unsafe: a run with such a finding and another verdict contradicts
// itself, and its exit status and headline would disagree.
var verdictOfRule = map[string]struct {
	field string
	want  string
	get   func(*Verdict) string
}{
	"LA201": {"verdict.native_release", Unsafe, func(v *Verdict) string { return v.NativeRelease }},
	"LA202": {"verdict.native_extend", Unsafe, func(v *Verdict) string { return v.NativeExtend }},
	"LA203": {"verdict.lua", Missing, func(v *Verdict) string { return v.Lua }},
}

// Validate checks what the JSON form allows but a run never holds: a value
// outside its documented set, a position before line 1 or a negative
// column, a finding with both or neither of pos and node, a suppression
// without a justification, a verdict that contradicts the run's own
// findings. The error names the field ("verdict.native_release: "bogus"
// is not one of safe, unsafe, unknown"). `lockaudit render` refuses such a
// run (exit 1) rather than render it, because every renderer and the exit
// status would read it wrongly.
func (r *Run) Validate() error {
	if err := oneOf("command", r.Command, commands); err != nil {
		return err
	}
	for i, f := range r.Findings {
		where := fmt.Sprintf("findings[%d]", i)
		if f.Rule == "" {
			return fmt.Errorf("%s.rule: missing", where)
		}
		if !f.Severity.Valid() {
			return fmt.Errorf("%s.severity: missing (want error, warning or info)", where)
		}
		if (f.Pos == nil) == (f.Node == "") {
			return fmt.Errorf("%s (%s): a finding has either pos (code) or node (server), not both or neither", where, f.Rule)
		}
		if f.Pos != nil {
			if err := checkPos(where+".pos", *f.Pos); err != nil {
				return err
			}
		}
		if s := f.Suppressed; s != nil {
			if err := oneOf(where+".suppressed.kind", s.Kind, suppressionKinds); err != nil {
				return err
			}
			if strings.TrimSpace(s.Justification) == "" {
				return fmt.Errorf("%s.suppressed.justification: missing (a suppression needs a reason)", where)
			}
		}
	}
	for i, u := range r.Uses {
		where := fmt.Sprintf("uses[%d]", i)
		if err := oneOf(where+".command", u.Command, useCommands); err != nil {
			return err
		}
		for j, s := range u.Sites {
			if err := checkPos(fmt.Sprintf("%s.sites[%d].pos", where, j), s.Pos); err != nil {
				return err
			}
		}
	}
	for i, n := range r.Nodes {
		where := fmt.Sprintf("nodes[%d]", i)
		if n.Addr == "" {
			return fmt.Errorf("%s.addr: missing", where)
		}
		for _, c := range []struct {
			field, value string
			allowed      []string
		}{
			{"role", n.Role, roles},
			{"promotable", n.Promotable, promotableValues},
			{"server", n.Server, servers},
			{"lua", n.Lua, answers},
			{"delifeq", n.DELIFEQ, answers},
			{"delex", n.DELEX, answers},
			{"set_ifeq", n.SetIFEQ, answers},
		} {
			if err := oneOf(where+"."+c.field, c.value, c.allowed); err != nil {
				return err
			}
		}
	}
	for i, n := range r.Conform {
		for j, st := range n.Steps {
			if err := oneOf(fmt.Sprintf("conform[%d].steps[%d].status", i, j), st.Status, stepStatuses); err != nil {
				return err
			}
		}
	}
	if v := r.Verdict; v != nil {
		for _, c := range []struct {
			field, value string
			allowed      []string
		}{
			{"verdict.native_release", v.NativeRelease, releaseVerdicts},
			{"verdict.native_extend", v.NativeExtend, releaseVerdicts},
			{"verdict.lua", v.Lua, luaVerdicts},
		} {
			if err := oneOf(c.field, c.value, c.allowed); err != nil {
				return err
			}
		}
	}
	for i, f := range r.Active() {
		rule, ok := verdictOfRule[f.Rule]
		if !ok || f.Pos != nil {
			continue
		}
		if r.Verdict == nil {
			return fmt.Errorf("findings: %s on %s, but the run has no verdict", f.Rule, f.Node)
		}
		if got := rule.get(r.Verdict); got != rule.want {
			return fmt.Errorf("%s: %q, but finding %s on %s says it is %s (active finding %d): the run contradicts itself", rule.field, got, f.Rule, f.Node, rule.want, i+1)
		}
	}
	return nil
}

func oneOf(field, value string, allowed []string) error {
	if !slices.Contains(allowed, value) {
		return fmt.Errorf("%s: %q is not one of %s", field, value, strings.Join(allowed, ", "))
	}
	return nil
}

func checkPos(field string, p Position) error {
	switch {
	case p.File == "":
		return fmt.Errorf("%s.file: missing", field)
	case p.Line < 1:
		return fmt.Errorf("%s.line: %d is not a line number (lines start at 1)", field, p.Line)
	case p.Col < 0:
		return fmt.Errorf("%s.col: %d is not a column (columns start at 1; 0 means unknown)", field, p.Col)
	}
	return nil
}
