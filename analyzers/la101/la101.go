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
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports Lua lock scripts at their definition.
var Analyzer = ruleutil.New(rules.LA101, check, keys.Analyzer, settings.Analyzer)

func init() {
	Analyzer.FactTypes = []analysis.Fact{new(CallerJudged)}
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
		if sc.Detail.TooLarge {
			// Beyond what the classifier reads: unknown, never "no
			// lock step" (a generated compare-and-delete of 50,000
			// nested checks).
			ruleutil.Report(pass, rules.LA101, sc.Pos, "Lua script%s not classified: too large (%s); check its lock steps by hand", where(sc), lua.TooLargeReason)
			continue
		}
		steps := Reportable(sc.Steps, target)
		if sc.Steps&lua.Acquire == 0 && c.In.GuardedAcquire(sc) {
			// EXISTS == 0 then SET and PEXPIRE, held as a lock (a Mutex
			// releases it): an acquire, by the Go side's evidence.
			steps |= lua.Acquire
		}
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
		ruleutil.ReportFix(pass, rules.LA101, sc.Pos, releaseFix(c, op, sc), "%s", msg)
	}
	throughWrappers(pass, c.In, target)
	return nil, nil
}

// CallerJudged is the fact LA101 exports for a wrapper that runs a
// compare-and-delete (or -extend) script of its own on a key its callers
// pass, when nothing where the wrapper is shows it to be lock code (a
// generic release helper: func Release(ctx, rdb, key, token string)):
// each caller judges it by the key and names it has.
type CallerJudged struct{}

// AFact makes CallerJudged a go/analysis fact.
func (*CallerJudged) AFact() {}

func (*CallerJudged) String() string { return "judged at callers" }

// throughWrappers judges, at their callers, the scripts of generic
// wrappers (CallerJudged): LA101 at a call whose key or names are lock
// evidence (keys.RunEvidence). It exports the fact for this package's
// wrappers whose script has no lock evidence here: those that run a
// script of their own, and those that call a generic wrapper of another
// package without evidence.
func throughWrappers(pass *analysis.Pass, in *keys.Info, target fix.Target) {
	for _, op := range in.Ops {
		sc := op.Script
		if sc == nil || op.Kind == resolve.ScriptDef || sc.Steps&lua.Acquire != 0 || !sc.Steps.IsLock() {
			continue // a scripted acquire is reported where its text is
		}
		generic := false
		switch {
		case !sc.Foreign:
			if op.InWrapper != nil && op.InWrapper.Passed&resolve.PassedKey != 0 {
				_, lock := in.ScriptEvidence(sc)
				generic = !lock
			}
		case op.Via != nil && pass.ImportObjectFact(op.Via.Func, new(CallerJudged)):
			if _, ok := in.RunEvidence(op); ok {
				if steps := Reportable(sc.Steps, target); steps.IsLock() {
					ruleutil.Report(pass, rules.LA101, op.Pos, "%s",
						"Lua lock script"+ruleutil.Through(pass, op)+strings.TrimPrefix(Message(steps, target), "Lua lock script"))
				}
			} else {
				generic = op.InWrapper != nil && op.InWrapper.Passed&resolve.PassedKey != 0
			}
		}
		if generic {
			pass.ExportObjectFact(op.InWrapper.Func, new(CallerJudged))
		}
	}
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

// where names an embedded script's file for a message, " (lock.lua)".
func where(sc *resolve.Script) string {
	if sc.Source == "" {
		return ""
	}
	return " (" + sc.Source + ")"
}
