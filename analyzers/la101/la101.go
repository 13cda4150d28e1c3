package la101

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports Lua lock scripts at their definition.
var Analyzer = ruleutil.New("LA101", check, keys.Analyzer, settings.Analyzer)

func init() {
	settings.DeclareTarget(&Analyzer.Flags, "the fix replaces a compare-and-delete with DELIFEQ when every target has it, else with DELEX IFEQ when every target has that")
}

func check(pass *analysis.Pass) (any, error) {
	c := fix.New(pass)
	seen := map[token.Pos]bool{}
	for _, op := range ruleutil.Ops(pass).Ops {
		sc := op.Script
		if sc == nil || seen[sc.Pos] || !(op.Kind == resolve.ScriptDef || sc.Inline) {
			continue
		}
		steps := sc.Steps
		if !steps.IsLock() {
			continue
		}
		seen[sc.Pos] = true
		ruleutil.ReportFix(pass, "LA101", sc.Pos, releaseFix(c, op, sc), "%s", Message(steps))
	}
	return nil, nil
}

// Message describes a Lua lock script and its native replacements.
func Message(steps lua.Step) string {
	var what, fix []string
	if steps&lua.Acquire != 0 {
		what = append(what, "scripted acquire")
		fix = append(fix, "acquire with SET key token NX PX ttl (every version)")
	}
	if steps&lua.Extend != 0 {
		what = append(what, "compare-and-extend")
		fix = append(fix, "extend with SET key token IFEQ token PX ttl ("+rules.Requirement(rules.SetIFEQ)+")")
	}
	if steps&lua.Release != 0 {
		what = append(what, "compare-and-delete")
		fix = append(fix, "release with DELIFEQ key token ("+rules.Requirement(rules.DELIFEQ)+") or DELEX key IFEQ token ("+rules.Requirement(rules.DELEX)+")")
	}
	if steps&lua.Fence != 0 {
		fix = append(fix, "draw the fence with INCR in the same MULTI/EXEC as the SET NX PX")
	}
	return "Lua lock script (" + strings.Join(what, ", ") + ") fails where Lua is absent (Valkey 9.1+ without the Lua module, providers that ban EVAL) and EVALSHA answers NOSCRIPT after a failover; use native commands: " + strings.Join(fix, "; ")
}
