package fix

import "github.com/lockaudit/lockaudit/rules"

// Target is what advice needs to know of a run's -target list
// (*settings.Settings): whether every server in it has a feature.
type Target interface{ Supports(rules.Feature) bool }

// The advice a diagnostic ends with, as short as a message allows. Every
// piece works on every server of the target list: where some target has
// no native release (Redis before 8.4, Valkey before 9.0, or a mix with no
// command in common) or no SET IFEQ (Valkey before 8.1, Redis before 8.4),
// the owner-checked step stays a Lua script.
const (
	AcquireAdvice    = "SET key token NX PX ttl" // every version
	luaReleaseAdvice = "a Lua compare-and-delete"
	luaExtendAdvice  = "a Lua compare-and-extend"
)

// ReleaseAdvice is the release that works on every target: "DELIFEQ key
// token", "DELEX key IFEQ token", else a Lua compare-and-delete.
func ReleaseAdvice(t Target) string {
	switch ReleaseCmd(t) {
	case "DELIFEQ":
		return "DELIFEQ key token"
	case "DELEX":
		return "DELEX key IFEQ token"
	}
	return luaReleaseAdvice
}

// NativeRelease reports whether every target has a native owner-checked
// release (one command for all of them).
func NativeRelease(t Target) bool { return ReleaseCmd(t) != "" }

// ExtendAdvice is the extend that works on every target: SET IFEQ with a
// lease, else a Lua compare-and-extend.
func ExtendAdvice(t Target) string {
	if NativeExtend(t) {
		return "SET key token IFEQ token PX ttl"
	}
	return luaExtendAdvice
}

// NativeExtend reports whether every target has SET IFEQ.
func NativeExtend(t Target) bool { return t.Supports(rules.SetIFEQ) }
