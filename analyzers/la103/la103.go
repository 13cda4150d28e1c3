package la103

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports plain-DEL releases of lock keys.
var Analyzer = ruleutil.New(rules.LA103, run, keys.Analyzer, settings.Analyzer)

func init() {
	settings.Declare(&Analyzer.Flags, settings.OptLockKeys)
	settings.DeclareTarget(&Analyzer.Flags, "the advice and the fix release with DELIFEQ when every target has it, else with DELEX IFEQ when every target has that, else the advice is a Lua compare-and-delete (and there is no fix)")
}

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	c := fix.New(pass)
	release := fix.ReleaseAdvice(settings.Of(pass))
	for _, op := range in.Ops {
		if !op.IsPlainDel() || !op.Complete || !op.Passes(resolve.PassedKey) || in.WatchGuarded(op) {
			continue
		}
		for _, k := range op.Keys {
			lk, ok := in.LockKeyAt(op, k)
			if !ok {
				continue
			}
			if op.Via != nil && op.Via.Checked {
				// A GET-compare-then-DEL helper: a release racing its
				// owner check when what it compares is the lock's token.
				if op.Match != nil && (lk.Acquire == nil || lk.Acquire.Value == nil || in.SameKey(op.Match, lk.Acquire.Value)) {
					ruleutil.Report(pass, rules.LA103, op.Pos,
						"%s of lock key %s races its GET check of the token: the lock can change hands in between; use %s",
						op.Name+ruleutil.Through(pass, op), ruleutil.Key(k), release)
				}
				break
			}
			if get := in.CheckedBefore(op); get != nil && in.SameKey(get.Key(), k) {
				ruleutil.ReportFix(pass, rules.LA103, op.Pos, releaseFix(c, op),
					"%s of lock key %s races the GET check at line %d: the lock can change hands in between; use %s",
					op.Name, ruleutil.Key(k), in.Line(get.Pos), release)
				break
			}
			ruleutil.ReportFix(pass, rules.LA103, op.Pos, releaseFix(c, op),
				"plain %s of lock key %s deletes whoever holds it: use %s and check the reply",
				op.Name+ruleutil.Through(pass, op), ruleutil.Key(k), release)
			break
		}
	}
	luaDeletes(pass, in, release)
	return nil, nil
}

// luaDeletes reports Lua scripts that DEL a lock key without comparing its
// value first (go-redisson's Mutex.Unlock: EXISTS then DEL), at each run:
// which key a KEYS entry is, and whether it is a lock's, the run says.
func luaDeletes(pass *analysis.Pass, in *keys.Info, release string) {
	for _, s := range in.UncheckedLockSteps(false) {
		ruleutil.Report(pass, rules.LA103, s.Op.Pos,
			"plain DEL in Lua%s of lock key %s deletes whoever holds it: use %s and check the reply",
			ruleutil.Through(pass, s.Op), ruleutil.Key(s.Key), release)
	}
}
