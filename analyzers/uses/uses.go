// Package uses defines an infrastructure Analyzer that derives, from the
// resolve layer's Ops, which server commands the code relies on: the native
// release (DELIFEQ, DELEX), the native extend (SET IFEQ) and Lua (EVAL-family
// commands, FCALL, script objects that are run, SCRIPT/FUNCTION LOAD, and
// lock-library calls whose steps run in Lua). It reports nothing; its result
// is what `lockaudit audit` and `preflight` probe (or declare) the fleet for,
// with the places in the code that rely on each command.
//
// Lock libraries hide their Lua: which of their steps run Lua is the
// resolve layer's table (Client.Lib.Lua); redsync, for one, releases and
// extends with Lua scripts but acquires natively (SET NX PX).
package uses

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer finds the commands the code relies on. Its result is *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "uses",
	Doc:        "find the server commands the lock code relies on (DELIFEQ, DELEX, SET IFEQ, Lua), for audit and preflight",
	Requires:   []*analysis.Analyzer{resolve.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
	Run:        run,
}

// Site is one place that relies on a command.
type Site struct {
	Command rules.Command
	Pos     token.Pos
	What    string // "DELIFEQ release", "redsync Mutex.Unlock (Lua release)", ...
}

// Result lists the sites of one package in source order.
type Result struct {
	Sites []Site
}

// ReportUses converts the sites to the report's form, one Use per command
// (sorted by command) with its sites sorted by position; pos maps a
// token.Pos to a position relative to the module root. The analysis driver
// calls it to fill report.Run.Uses.
func (r *Result) ReportUses(pos func(token.Pos) finding.Position) []finding.Use {
	var out []finding.Use
	for _, s := range r.Sites {
		out = append(out, finding.Use{Command: s.Command, Sites: []finding.Site{{Pos: pos(s.Pos), What: s.What}}})
	}
	return Merge(nil, out) // one Use per command, sites sorted
}

// Merge adds b's uses to a: one Use per command, sorted by command, sites
// sorted by position and without duplicates (a file analysed twice with
// -tests gives the same site twice).
func Merge(a, b []finding.Use) []finding.Use {
	byCmd := map[rules.Command][]finding.Site{}
	var order []rules.Command
	for _, u := range append(append([]finding.Use(nil), a...), b...) {
		if _, ok := byCmd[u.Command]; !ok {
			order = append(order, u.Command)
			byCmd[u.Command] = nil
		}
		byCmd[u.Command] = append(byCmd[u.Command], u.Sites...)
	}
	slices.SortFunc(order, func(a, b rules.Command) int { return strings.Compare(a.String(), b.String()) })
	out := make([]finding.Use, 0, len(order))
	for _, c := range order {
		sites := byCmd[c]
		sort.SliceStable(sites, func(i, j int) bool { return sites[i].Compare(sites[j]) < 0 })
		var uniq []finding.Site
		for i, s := range sites {
			if i > 0 && s == sites[i-1] {
				continue
			}
			uniq = append(uniq, s)
		}
		out = append(out, finding.Use{Command: c, Sites: uniq})
	}
	return out
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{}
	ops := pass.ResultOf[resolve.Analyzer].(*resolve.Result)
	for _, op := range ops.Ops {
		cmd, what := classify(pass, op)
		if cmd != 0 {
			res.Sites = append(res.Sites, Site{Command: cmd, Pos: op.Pos, What: what})
		}
	}
	return res, nil
}

// classify says which command an Op relies on (0 for none) and names it.
func classify(pass *analysis.Pass, op *resolve.Op) (rules.Command, string) {
	switch op.Kind {
	case resolve.Library:
		return library(pass, op)
	case resolve.ScriptDef:
		return 0, "" // a script relies on Lua where it is run
	}
	switch op.Name {
	case "DELIFEQ":
		return rules.UseDELIFEQ, "DELIFEQ release"
	case "DELEX":
		if op.Cond == "" {
			return rules.UseDELEX, "DELEX without a condition"
		}
		return rules.UseDELEX, "DELEX " + op.Cond + " release"
	case "SET":
		if op.Cond == "IFEQ" {
			if op.NX || op.XX {
				return rules.UseIFEQ, "SET IFEQ"
			}
			return rules.UseIFEQ, "SET IFEQ extend"
		}
	case "EVAL", "EVAL_RO", "EVALSHA", "EVALSHA_RO":
		return rules.UseLua, script(pass, op)
	case "FCALL", "FCALL_RO":
		return rules.UseLua, "Lua function call (" + op.Name + ")"
	case "SCRIPT LOAD", "FUNCTION LOAD":
		return rules.UseLua, op.Name
	case "SCRIPT", "FUNCTION":
		if len(op.Args) > 0 && strings.EqualFold(constString(pass, op.Args[0]), "load") {
			return rules.UseLua, op.Name + " LOAD"
		}
	}
	return 0, ""
}

// script names an EVAL-family command: what its Lua does, and where the
// script object it runs is defined.
func script(pass *analysis.Pass, op *resolve.Op) string {
	sc := op.Script
	if sc == nil {
		return "Lua script (" + op.Name + ")"
	}
	name := "Lua " + steps(sc.Steps) + "script"
	if sc.Inline {
		return name + " (inline " + op.Name + ")"
	}
	p := pass.Fset.Position(sc.Pos)
	return fmt.Sprintf("%s (%s:%d)", name, filepath.Base(p.Filename), p.Line)
}

// steps words a script's lock steps: "compare-and-delete ", or "" for a
// script that is not a lock step.
func steps(s lua.Step) string {
	var parts []string
	if s&lua.Acquire != 0 {
		parts = append(parts, "acquire")
	}
	if s&lua.Extend != 0 {
		parts = append(parts, "compare-and-extend")
	}
	if s&lua.Release != 0 {
		parts = append(parts, "compare-and-delete")
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " and ") + " "
}

func library(pass *analysis.Pass, op *resolve.Op) (rules.Command, string) {
	lib := op.Client.Lib
	if lib == nil || lib.Lua[op.Step] == "" {
		return 0, ""
	}
	_, name := resolve.CallName(pass.TypesInfo, op)
	return rules.UseLua, fmt.Sprintf("%s %s (%s)", lib.Module, name, lib.Lua[op.Step])
}

// constString returns the constant string value of e, or "".
func constString(pass *analysis.Pass, e ast.Expr) string {
	if tv, ok := pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	return ""
}
