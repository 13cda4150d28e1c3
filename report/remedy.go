package report

import (
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// This file words the capability table's remedies (rules.Remedies): what
// works on a server that lacks a command a lock step needs. The verdict's
// advice, the probe's LA201–LA203 and conform's steps all word them here,
// so Redis is never told to release with DELIFEQ, nor Valkey before 9.2
// to release with DELEX it does not have.

// commandUse is how a step is written with a command.
var commandUse = map[rules.Feature]string{
	rules.DELIFEQ: "release with DELIFEQ key token",
	rules.DELEX:   "release with DELEX key IFEQ token",
	rules.SetIFEQ: "extend with SET key token IFEQ token PX ttl",
	rules.WAITAOF: "wait with WAITAOF",
}

// nativeStep names a native command as a lock step, for "move those lock
// steps to the native commands (DELIFEQ release, SET IFEQ PX extend)".
var nativeStep = map[rules.Feature]string{
	rules.DELIFEQ: "DELIFEQ release",
	rules.DELEX:   "DELEX IFEQ release",
	rules.SetIFEQ: "SET IFEQ PX extend",
}

// Remedy words what works on who (an address, "it", or "every valkey-8.1
// node that can become primary"), a server of release from (zero when
// unknown; named as fromName, "valkey-8.1.1" or a line), for a step
// needing f: each way of rules.Remedies, joined by ", or ". when
// ("before releasing with DELIFEQ") follows the first way that gives the
// server f itself. "" when nothing is known to work.
func Remedy(who, fromName string, from rules.Version, f rules.Feature, when string) string {
	if from.IsZero() && f != rules.Lua {
		return "upgrade " + who + " to a server with " + string(f) + " (" + rules.Requirement(f) + ")" + space(when)
	}
	type way struct {
		text  string
		gives bool // the server gets f itself
	}
	var ways []way
	var native []string
	for _, r := range rules.Remedies(from, f) {
		switch {
		case r.LoadLua:
			ways = append(ways, way{"give " + who + " a Lua engine (load the Lua module; EVAL must not be renamed away)", true})
		case f == rules.Lua:
			native = append(native, nativeStep[r.Use])
		case r.To.IsZero():
			ways = append(ways, way{commandUse[r.Use] + " instead of " + string(f) + " (" + who + " has " + string(r.Use) + ")", false})
		case r.Move(from):
			ways = append(ways, way{"move " + who + " to " + r.To.Plus(), r.Use == f})
		default:
			w := "upgrade " + who + " from " + fromName + " to " + r.To.Plus()
			if r.Use != f {
				w += " and " + commandUse[r.Use]
			}
			ways = append(ways, way{w, r.Use == f})
		}
	}
	if len(native) > 0 {
		ways = append(ways, way{"move those lock steps to the native commands (" + strings.Join(native, ", ") + ")", false})
	}
	var out []string
	placed := when == ""
	for _, w := range ways {
		if !placed && w.gives {
			w.text += " " + when
			placed = true
		}
		out = append(out, w.text)
	}
	return strings.Join(out, ", or ")
}

func space(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}
