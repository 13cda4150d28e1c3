package la101

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// Analyzer reports Lua lock scripts at their definition.
var Analyzer = ruleutil.New("LA101", check, keys.Analyzer, settings.Analyzer)

func init() {
	settings.DeclareTarget(&Analyzer.Flags, "a step is reported only where every target has its native form (a compare-and-delete needs DELIFEQ or DELEX on every target, a compare-and-extend SET IFEQ); the fix uses DELIFEQ when every target has it, else DELEX IFEQ")
	settings.Declare(&Analyzer.Flags, settings.OptLockKeys)
}

func check(pass *analysis.Pass) (any, error) {
	c := fix.New(pass)
	target := settings.Of(pass)
	seen := map[token.Pos]bool{}
	for _, op := range ruleutil.Ops(pass).Ops {
		sc := op.Script
		if sc == nil || seen[sc.Pos] || !(op.Kind == resolve.ScriptDef || sc.Inline) {
			continue
		}
		seen[sc.Pos] = true
		steps := Reportable(sc.Steps, target)
		if !steps.IsLock() {
			continue
		}
		if steps&lua.Acquire == 0 {
			// A compare-and-delete (or -extend) of data has the shape of a
			// lock step: only lock evidence makes it one.
			if _, ok := c.In.ScriptEvidence(sc); !ok {
				continue
			}
		}
		msg := Message(steps, target)
		if sc.Source != "" {
			// The text is in an embedded file: say where its lock step is.
			msg = "Lua lock script in " + fmt.Sprintf("%s:%d", sc.Source, max(1, sc.Detail.Line(sc.Text))) + strings.TrimPrefix(msg, "Lua lock script")
		}
		ruleutil.ReportFix(pass, "LA101", sc.Pos, releaseFix(c, op, sc), "%s", msg)
	}
	return nil, nil
}

// Reportable returns the steps of a script that have a native form on
// every target: a scripted acquire always (SET NX PX works everywhere),
// a compare-and-extend where every target has SET IFEQ, a compare-and-delete
// where every target has one native release. Elsewhere the Lua step is the
// correct one for the fleet.
func Reportable(steps lua.Step, t fix.Target) lua.Step {
	out := steps & (lua.Acquire | lua.Fence)
	if steps&lua.Extend != 0 && fix.NativeExtend(t) {
		out |= lua.Extend
	}
	if steps&lua.Release != 0 && fix.NativeRelease(t) {
		out |= lua.Release
	}
	return out
}

// Message names a Lua lock script's steps and their native replacements
// on the target.
func Message(steps lua.Step, t fix.Target) string {
	var what, use []string
	if steps&lua.Acquire != 0 {
		what = append(what, "acquire")
		if steps&lua.Fence != 0 {
			use = append(use, fix.AcquireAdvice+" and INCR in one MULTI")
		} else {
			use = append(use, fix.AcquireAdvice)
		}
	}
	if steps&lua.Extend != 0 {
		what = append(what, "extend")
		use = append(use, fix.ExtendAdvice(t))
	}
	if steps&lua.Release != 0 {
		what = append(what, "release")
		use = append(use, fix.ReleaseAdvice(t))
	}
	return "Lua lock script (" + strings.Join(what, ", ") + "): use " + strings.Join(use, ", ") + " instead"
}
