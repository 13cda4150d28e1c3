package probe

import (
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// This file is the one place that turns what was read on a node (and what
// could not be read) into its answers, at evaluation (decide, once per
// node): the collector only keeps the replies. A fact that failed makes unknown only
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

// observed is what the collector read on a data node, as parsed. A
// nil/false field means not read; the matching FactError (if any) is in
// Facts.Errors. The node's version is Facts.Version (INFO server).
type observed struct {
	commands  map[string]bool // COMMAND INFO: name → exists
	setTokens []string        // COMMAND DOCS SET condition tokens
	docsRead  bool
	scripting *scripting // INFO scriptingengines
	// link is a replica's side of its replication link (INFO
	// replication); nil on a primary or when unread.
	link *replicaLink
	// noLua names where a declared node is declared without Lua.
	noLua string
}

// replicaLink is a replica's side of its replication link, as INFO
// replication reports it.
type replicaLink struct {
	status    string // master_link_status: up, down
	downSince int    // seconds the link has been down; -1: never up
	syncing   bool   // a full sync is in progress
}

// down reports whether the link was read and is not up.
func (l *replicaLink) down() bool { return l != nil && l.status != "" && l.status != "up" }

// answer is a node's answer for one command and how it is known.
type answer struct {
	answer report.Answer
	why    string
}

// answers are a node's answers, by command.
type answers map[rules.Command]answer

// decide decides the node's answers from what was read on it (or, for a
// declared node, from its declared release). It is called once per node,
// by judge.
func decide(f Facts) answers {
	switch {
	case f.Declared:
		return declaredAnswers(f)
	case !f.reached() || f.Role == RoleSentinel:
		return answers{} // nothing read, or no data: every answer unknown (unknownWhy)
	}
	o := f.seen
	return answers{
		rules.UseDELIFEQ: commandAnswer(f, o, rules.DELIFEQ),
		rules.UseDELEX:   commandAnswer(f, o, rules.DELEX),
		rules.UseIFEQ:    ifeqAnswer(f, o),
		rules.UseLua:     luaAnswer(f, o),
	}
}

// declaredAnswers are a declared node's: the capability table's for its
// release, Lua built in unless declared otherwise.
func declaredAnswers(f Facts) answers {
	why := "declared " + f.Version.String()
	out := answers{}
	for _, c := range rules.Commands() {
		if feat, ok := c.Feature(); ok {
			out[c] = answer{report.AnswerOf(rules.Supports(f.Version, feat)), why}
		}
	}
	out[rules.UseLua] = answer{report.Yes, why}
	if f.seen.noLua != "" {
		out[rules.UseLua] = answer{report.No, "declared lua: false in " + f.seen.noLua}
	}
	return out
}

func commandAnswer(f Facts, o observed, feat rules.Feature) answer {
	upper := string(feat)
	if o.commands != nil {
		if o.commands[strings.ToLower(upper)] {
			return answer{report.Yes, "COMMAND INFO " + upper + ": present"}
		}
		return answer{report.No, "COMMAND INFO " + upper + ": nil (unknown command)"}
	}
	why := f.unread(FactCommands, "COMMAND INFO")
	if !f.Version.IsZero() && !rules.Supports(f.Version, feat) {
		return answer{report.No, serverName(f.Version) + " predates " + upper + " (" + why + ")"}
	}
	return answer{report.Unknown, why}
}

func ifeqAnswer(f Facts, o observed) answer {
	if o.docsRead {
		list := "none"
		if len(o.setTokens) > 0 {
			list = strings.Join(o.setTokens, " ")
		}
		for _, t := range o.setTokens {
			if t == "IFEQ" {
				return answer{report.Yes, "COMMAND DOCS SET: condition tokens " + list}
			}
		}
		return answer{report.No, "COMMAND DOCS SET: condition tokens " + list + " (no IFEQ)"}
	}
	why := f.unread(FactSetDocs, "COMMAND DOCS SET")
	if f.Version.IsZero() {
		return answer{report.Unknown, why}
	}
	return answer{report.AnswerOf(rules.Supports(f.Version, rules.SetIFEQ)), "by version: " + serverName(f.Version) + " (" + why + ")"}
}

func luaAnswer(f Facts, o observed) answer {
	if o.commands == nil {
		return answer{report.Unknown, f.unread(FactCommands, "COMMAND INFO EVAL") + " (EVAL may be renamed or disabled)"}
	}
	if !o.commands["eval"] {
		return answer{report.No, "COMMAND INFO EVAL: nil (EVAL is renamed or disabled)"}
	}
	sc := o.scripting
	switch {
	case sc != nil && sc.present && sc.hasEngine("LUA"):
		return answer{report.Yes, "INFO scriptingengines: Lua engine loaded"}
	case sc != nil && sc.present:
		return answer{report.No, "INFO scriptingengines: engines_count:" + strconv.Itoa(sc.engines) + ", no Lua engine"}
	case f.Version.IsZero():
		return answer{report.Unknown, "INFO server unreadable, and " + luaSectionWhy(f, sc)}
	case rules.Supports(f.Version, rules.LuaOptional):
		// 9.1+ always has the section; without it we cannot tell.
		return answer{report.Unknown, serverName(f.Version) + ": " + luaSectionWhy(f, sc)}
	}
	return answer{report.Yes, serverName(f.Version) + " has Lua built in (EVAL present)"}
}

func luaSectionWhy(f Facts, sc *scripting) string {
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
