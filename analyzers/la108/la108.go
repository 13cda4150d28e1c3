package la108

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/reply"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports extend and release replies that are not examined.
var Analyzer = ruleutil.New(rules.LA108, run, syntax.Analyzer, keys.Analyzer)

func run(pass *analysis.Pass) (any, error) {
	x := syntax.Of(pass)
	in := keys.Of(pass)
	for _, op := range in.Ops {
		step, what, lost := classify(op)
		if step == "" {
			continue
		}
		if op.Script != nil {
			// A Lua compare-and-delete (or -extend) of data has the
			// shape of a release: its reply means "lost" only where
			// the script is lock code, by the evidence LA101 asks for.
			if _, ok := in.ScriptEvidence(op.Script); !ok {
				continue
			}
		}
		bare, through := what, ruleutil.Through(pass, op)
		what += through
		use, cmp, k := reply.Comparison(x, op)
		if use == reply.NeverTrue {
			if op.Kind == resolve.Library && op.Client.LostIsError {
				continue // the error says "lost"
			}
			c := ruleutil.Expr(k)
			verdict := "never true"
			if cmp.Op == token.NEQ {
				verdict = "always true"
			}
			ruleutil.Report(pass, rules.LA108, cmp.Pos(),
				"reply of %s %s %s is %s (the reply holds an int64): use redis.Int64(reply, err) or compare with int64(%s)",
				what, cmp.Op, c, verdict, x.TypesInfo.Types[k].Value.ExactString())
			continue
		}
		if use != reply.Discarded && use != reply.ErrorOnly {
			continue
		}
		act := "stop the work if it is lost"
		if step == "release" {
			act = "record an incident if it was lost"
		}
		if op.Kind == resolve.Library && op.Client.LostIsError {
			// The library reports a lost lock as an error: only a dropped
			// result is reported.
			if use == reply.Discarded {
				ruleutil.Report(pass, rules.LA108, op.Pos,
					"result of %s is discarded, but an error means the lock was lost: check it and %s", what, act)
			}
			continue
		}
		if reply.DroppedInWrapper(op) && !reply.NilIsError(op) {
			// Whatever this caller does, the wrapper has dropped the
			// reply: it must return it first.
			ruleutil.Report(pass, rules.LA108, op.Pos,
				"%s returns only the error of %s, but %s (lock lost) is no error: return the reply and %s",
				strings.TrimPrefix(through, " in "), bare, lost, act)
			continue
		}
		if use == reply.Discarded {
			ruleutil.Report(pass, rules.LA108, op.Pos,
				"reply of %s is discarded, but %s means the lock was lost: examine it and %s", what, lost, act)
		} else {
			ruleutil.Report(pass, rules.LA108, op.Pos,
				"only the error of %s is checked, but %s (lock lost) is no error: examine the reply and %s", what, lost, act)
		}
	}
	return nil, nil
}

// classify says whether op is an extend or a release, how to name it in a
// message, and which reply means "lost".
func classify(op *resolve.Op) (step, what, lost string) {
	key := ""
	if len(op.Keys) > 0 && op.Via == nil {
		// Through a wrapper, the message names the wrapper (Through)
		// instead: the caller sees the key it passes.
		key = " " + ruleutil.Expr(op.Key())
	}
	switch op.Kind {
	case resolve.Library:
		switch op.Step {
		case "extend", "release":
			return op.Step, fmt.Sprintf("%s %s", op.Client.Name, op.Method), op.Client.Lib.Lost
		}
		return "", "", ""
	case resolve.Command:
	default:
		return "", "", ""
	}
	switch {
	case op.Name == "DELIFEQ":
		return "release", "DELIFEQ" + key, "0"
	case op.Name == "DELEX":
		if op.Cond == "" {
			return "", "", "" // a plain delete: LA112's
		}
		return "release", "DELEX" + key + " " + op.Cond, "0"
	case op.IsSetIFEQ():
		return "extend", "SET" + key + " IFEQ", "nil"
	case op.Steps()&resolve.StepRelease != 0 && op.Via != nil:
		return "release", "the Lua release", "0"
	case op.Steps()&resolve.StepExtend != 0 && op.Via != nil:
		return "extend", "the Lua extend", "0"
	case op.Steps()&resolve.StepRelease != 0:
		return "release", "the Lua release script (" + op.Name + key + ")", "0"
	case op.Steps()&resolve.StepExtend != 0:
		return "extend", "the Lua extend script (" + op.Name + key + ")", "0"
	}
	return "", "", ""
}
