package fix

import (
	"go/ast"
	"go/types"

	"github.com/lockaudit/lockaudit/rules"
)

// ReleaseCmd returns the native command a compare-and-delete becomes on
// target: "DELIFEQ" (key token) when every release in it has DELIFEQ, else
// "DELEX" (key IFEQ token) when every one has DELEX, else "" (no fix).
func ReleaseCmd(target Target) string {
	switch {
	case target.Supports(rules.DELIFEQ):
		return "DELIFEQ"
	case target.Supports(rules.DELEX):
		return "DELEX"
	}
	return ""
}

// ReleaseSteps returns the valkey-go/rueidis builder steps of cmd's
// release, Delifeq().Key(key).Value(tok) or Delex().Key(key).Ifeq(tok): the
// command's step and the condition's. ok is false unless a builder of type
// bt has these steps, key and tok fit their parameters, and the condition's
// result has Build.
func (c *Ctx) ReleaseSteps(bt types.Type, cmd string, key, tok ast.Expr) (step, cond string, ok bool) {
	step, cond = "Delifeq", "Value"
	if cmd == "DELEX" {
		step, cond = "Delex", "Ifeq"
	}
	m := HasMethod(bt, step)
	if m == nil || m.Signature().Params().Len() != 0 {
		return "", "", false
	}
	k := HasMethod(Result1(m), "Key")
	if k == nil || k.Signature().Variadic() || !c.Fits(key, Param(k, 0)) {
		return "", "", false
	}
	v := HasMethod(Result1(k), cond)
	if v == nil || v.Signature().Params().Len() != 1 || !c.Fits(tok, Param(v, 0)) || HasMethod(Result1(v), "Build") == nil {
		return "", "", false
	}
	return step, cond, true
}
