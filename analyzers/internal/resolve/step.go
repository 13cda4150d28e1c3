package resolve

import "github.com/lockaudit/lockaudit/analyzers/internal/lua"

// Steps is what an Op does to a lock, as a set of steps. Op.Steps is the
// one acquire, extend and release classifier the rules share; whether a
// SET NX takes a lock at all (rather than an idempotency marker) is a
// question about its key, which the keys layer answers (IsLockAcquire).
type Steps uint8

const (
	// StepAcquire: SET NX, SETNX, a Lua acquire, a library acquire.
	StepAcquire Steps = 1 << iota
	// StepExtend with an owner check: SET IFEQ, a Lua compare-and-extend,
	// a library extend.
	StepExtend
	// StepRelease with an owner check: DELIFEQ, DELEX with a condition, a
	// Lua compare-and-delete, a library release.
	StepRelease
	// StepDelete without an owner check: DEL, UNLINK, GETDEL, and DELEX
	// without a condition.
	StepDelete
	// StepExpire without an owner check: EXPIRE, PEXPIRE, EXPIREAT,
	// PEXPIREAT.
	StepExpire
)

// libSteps are the library steps that are lock steps ("ttl" and "locker"
// are not).
var libSteps = map[string]Steps{"acquire": StepAcquire, "extend": StepExtend, "release": StepRelease}

// Steps classifies the Op: a command by its name, options and Lua script,
// a library call by its step. Script definitions do nothing.
func (o *Op) Steps() Steps {
	switch o.Kind {
	case Library:
		return libSteps[o.Step]
	case Command:
	default:
		return 0
	}
	if o.Script != nil {
		var s Steps
		for _, m := range []struct {
			lua  lua.Step
			step Steps
		}{{lua.Acquire, StepAcquire}, {lua.Extend, StepExtend}, {lua.Release, StepRelease}} {
			if o.Script.Steps&m.lua != 0 {
				s |= m.step
			}
		}
		return s
	}
	switch o.Name {
	case "SETNX":
		return StepAcquire
	case "SET":
		var s Steps
		if o.NX {
			s |= StepAcquire
		}
		if o.Cond == "IFEQ" {
			s |= StepExtend
		}
		return s
	case "DELIFEQ":
		return StepRelease
	case "DELEX":
		if o.Cond != "" {
			return StepRelease
		}
		return StepDelete
	case "DEL", "UNLINK", "GETDEL":
		return StepDelete
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
		return StepExpire
	}
	return 0
}

// Native reports a command sent as itself, not as a Lua script.
func (o *Op) Native() bool { return o.Kind == Command && o.Script == nil }

// IsAcquire reports a native lock acquire: SET NX or SETNX.
func (o *Op) IsAcquire() bool { return o.Native() && o.Steps()&StepAcquire != 0 }

// IsSetIFEQ reports a SET IFEQ, the native compare-and-extend.
func (o *Op) IsSetIFEQ() bool { return o.Native() && o.Steps()&StepExtend != 0 }

// IsPlainDel reports a DEL, UNLINK or GETDEL: a delete without an owner
// check (a DELEX without a condition is one too, but LA112 reports it).
func (o *Op) IsPlainDel() bool { return o.Steps()&StepDelete != 0 && o.Name != "DELEX" }
