package la114

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports EXPIRE-family extends of lock keys.
var Analyzer = ruleutil.New(rules.LA114, run, keys.Analyzer, settings.Analyzer)

func init() {
	settings.Declare(&Analyzer.Flags, settings.OptLockKeys)
	settings.DeclareTarget(&Analyzer.Flags, "the advice is SET IFEQ with PX where every target has it, else a Lua compare-and-extend")
}

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	extend := fix.ExtendAdvice(settings.Of(pass))
	for _, op := range in.Ops {
		if op.Steps()&resolve.StepExpire == 0 || !op.Complete || len(op.Keys) == 0 || !op.Passes(resolve.PassedKey) {
			continue
		}
		// The EXPIRE that completes a TTL-less SETNX is LA106's; every
		// other EXPIRE of a lock key (a renew, one after a GETSET
		// takeover) is an extend without an owner check.
		if _, ok := in.LockKeyAt(op, op.Key()); !ok || in.CompletesAcquire(op) || in.WatchGuarded(op) {
			continue
		}
		if get := in.CheckedBefore(op); get != nil {
			ruleutil.Report(pass, rules.LA114, op.Pos,
				"%s of lock key %s races the GET check at line %d: the lock can change hands in between; use %s",
				op.Name, ruleutil.Key(op.Key()), in.Line(get.Pos), extend)
			continue
		}
		ruleutil.Report(pass, rules.LA114, op.Pos,
			"%s of lock key %s extends whoever holds it now: use %s and stop when it fails",
			op.Name, ruleutil.Key(op.Key()), extend)
	}
	luaExpires(pass, in, extend)
	setExtends(pass, in, extend)
	return nil, nil
}

// setExtends reports a SET without NX or a condition that re-writes a
// lock's token with a TTL, outside the acquire's function (magicLibs'
// AddTimeOut: SET key token EX ttl): an extend that overwrites and
// extends whoever holds the lock now. A SET of another value (a marker),
// or without a TTL, is not an extend.
func setExtends(pass *analysis.Pass, in *keys.Info, extend string) {
	for _, op := range in.Ops {
		if !op.Native() || op.Name != "SET" || op.NX || op.Cond != "" || op.TTL != resolve.Expire ||
			!op.Complete || op.Value == nil || len(op.Keys) == 0 || !op.Passes(resolve.PassedKey) {
			continue
		}
		lk, ok := in.LockKeyAt(op, op.Key())
		if !ok || lk.Acquire == nil || lk.Acquire.Value == nil || lk.Acquire.Func == op.Func || !in.SameKey(op.Value, lk.Acquire.Value) {
			continue
		}
		ruleutil.Report(pass, rules.LA114, op.Pos,
			"SET of lock key %s without IFEQ re-writes its token: it extends whoever holds it now; use %s and stop when it fails",
			ruleutil.Key(op.Key()), extend)
	}
}

// luaExpires reports Lua scripts that give a lock key a TTL without
// comparing its value (go-redisson's watchdog: EXISTS then PEXPIRE), at
// each run: which key a KEYS entry is, and whether it is a lock's, the run
// says. The TTL a script gives a key it has just set is no extend (the
// Lua layer leaves it out).
func luaExpires(pass *analysis.Pass, in *keys.Info, extend string) {
	for _, s := range in.UncheckedLockSteps(true) {
		ruleutil.Report(pass, rules.LA114, s.Op.Pos,
			"EXPIRE in Lua%s of lock key %s extends whoever holds it now: use %s and stop when it fails",
			ruleutil.Through(pass, s.Op), ruleutil.Key(s.Key), extend)
	}
}
