package probe

import (
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// This file is the one place that turns what was read on a node (and what
// could not be read) into its answers. A fact that failed makes unknown only
// the answers that need it:
//
//	answer   read from                        when that failed
//	DELIFEQ  COMMAND INFO DELIFEQ             "no" if the version predates it, else unknown
//	DELEX    COMMAND INFO DELEX               "no" if the version predates it, else unknown
//	SET IFEQ COMMAND DOCS SET (condition)     by version (an option cannot be renamed away)
//	Lua      INFO scriptingengines + EVAL     unknown
//
// A command that exists by version can still be renamed or disabled, so a
// version alone never says "yes" for DELIFEQ/DELEX or EVAL. It can say "no":
// no server has a command before the release that added it.

// observed is what the collector read on a data node. A nil/false field
// means not read; the matching FactError (if any) is in Facts.Errors.
type observed struct {
	version   rules.Version   // zero: INFO server unreadable
	commands  map[string]bool // COMMAND INFO: name → exists
	setTokens []string        // COMMAND DOCS SET condition tokens
	docsRead  bool
	scripting *scripting // INFO scriptingengines
}

// decide fills f's answers (and Why) from what was observed.
func decide(f *Facts, o observed) {
	f.Version = o.version
	f.DELIFEQ, f.Why[rules.UseDELIFEQ] = commandAnswer(f, o, rules.DELIFEQ)
	f.DELEX, f.Why[rules.UseDELEX] = commandAnswer(f, o, rules.DELEX)
	f.SetIFEQ, f.Why[rules.UseIFEQ] = ifeqAnswer(f, o)
	f.Lua, f.Why[rules.UseLua] = luaAnswer(f, o)
}

// commandAnswer answers for a command COMMAND INFO names (by its feature:
// DELIFEQ, DELEX).
func commandAnswer(f *Facts, o observed, feat rules.Feature) (report.Answer, string) {
	upper := string(feat)
	if o.commands != nil {
		if o.commands[strings.ToLower(upper)] {
			return report.Yes, "COMMAND INFO " + upper + ": present"
		}
		return report.No, "COMMAND INFO " + upper + ": nil (unknown command)"
	}
	why := f.unread(FactCommands, "COMMAND INFO")
	if !o.version.IsZero() && !rules.Supports(o.version, feat) {
		return report.No, serverName(o.version) + " predates " + upper + " (" + why + ")"
	}
	return report.Unknown, why
}

func ifeqAnswer(f *Facts, o observed) (report.Answer, string) {
	if o.docsRead {
		list := "none"
		if len(o.setTokens) > 0 {
			list = strings.Join(o.setTokens, " ")
		}
		for _, t := range o.setTokens {
			if t == "IFEQ" {
				return report.Yes, "COMMAND DOCS SET: condition tokens " + list
			}
		}
		return report.No, "COMMAND DOCS SET: condition tokens " + list + " (no IFEQ)"
	}
	why := f.unread(FactSetDocs, "COMMAND DOCS SET")
	if o.version.IsZero() {
		return report.Unknown, why
	}
	return report.AnswerOf(rules.Supports(o.version, rules.SetIFEQ)), "by version: " + serverName(o.version) + " (" + why + ")"
}

func luaAnswer(f *Facts, o observed) (report.Answer, string) {
	if o.commands == nil {
		return report.Unknown, f.unread(FactCommands, "COMMAND INFO EVAL") + " (EVAL may be renamed or disabled)"
	}
	if !o.commands["eval"] {
		return report.No, "COMMAND INFO EVAL: nil (EVAL is renamed or disabled)"
	}
	sc := o.scripting
	switch {
	case sc != nil && sc.present && sc.hasEngine("LUA"):
		return report.Yes, "INFO scriptingengines: Lua engine loaded"
	case sc != nil && sc.present:
		return report.No, "INFO scriptingengines: engines_count:" + strconv.Itoa(sc.engines) + ", no Lua engine"
	case o.version.IsZero():
		return report.Unknown, "INFO server unreadable, and " + luaSectionWhy(f, sc)
	case rules.Supports(o.version, rules.LuaOptional):
		// 9.1+ always has the section; without it we cannot tell.
		return report.Unknown, serverName(o.version) + ": " + luaSectionWhy(f, sc)
	}
	return report.Yes, serverName(o.version) + " has Lua built in (EVAL present)"
}

func luaSectionWhy(f *Facts, sc *scripting) string {
	if _, failed := f.failed(FactLua); sc != nil && !failed {
		return "INFO scriptingengines is empty"
	}
	return f.unread(FactLua, "INFO scriptingengines")
}

// unread says why a fact was not read: "COMMAND INFO: NOPERM ..." with the
// recorded error, else "COMMAND INFO unreadable".
func (f Facts) unread(fact Fact, what string) string {
	if e, ok := f.failed(fact); ok {
		return what + ": " + e.Reason
	}
	return what + " unreadable"
}
