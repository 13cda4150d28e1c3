package probe

import (
	"slices"
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
	why    report.AnswerSource
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
	why := report.AnswerSource{Kind: report.SourceDeclaredRelease}
	out := answers{}
	for _, c := range rules.Commands() {
		if feat, ok := c.Feature(); ok {
			out[c] = answer{report.AnswerOf(rules.Supports(f.Version, feat)), why}
		}
	}
	out[rules.UseLua] = answer{report.Yes, why}
	if f.seen.noLua != "" {
		out[rules.UseLua] = answer{report.No, report.AnswerSource{Kind: report.SourceDeclaredNoLua, Where: f.seen.noLua}}
	}
	return out
}

func commandAnswer(f Facts, o observed, feat rules.Feature) answer {
	upper := string(feat)
	if o.commands != nil {
		if o.commands[strings.ToLower(upper)] {
			return answer{report.Yes, report.AnswerSource{Kind: report.SourceCommandInfo, Command: upper}}
		}
		return answer{report.No, report.AnswerSource{Kind: report.SourceCommandNil, Command: upper}}
	}
	why := report.AnswerSource{Kind: report.SourceCommandInfoFailed, Error: f.readError(FactCommands)}
	if !f.Version.IsZero() && !rules.Supports(f.Version, feat) {
		why.Kind, why.Command = report.SourcePredates, upper
		return answer{report.No, why}
	}
	return answer{report.Unknown, why}
}

func ifeqAnswer(f Facts, o observed) answer {
	if o.docsRead {
		tokens := append([]string(nil), o.setTokens...)
		return answer{report.AnswerOf(slices.Contains(tokens, "IFEQ")), report.AnswerSource{Kind: report.SourceSetTokens, Tokens: tokens}}
	}
	why := report.AnswerSource{Kind: report.SourceSetDocsFailed, Error: f.readError(FactSetDocs)}
	if f.Version.IsZero() {
		return answer{report.Unknown, why}
	}
	why.Kind = report.SourceByVersion
	return answer{report.AnswerOf(rules.Supports(f.Version, rules.SetIFEQ)), why}
}

func luaAnswer(f Facts, o observed) answer {
	if o.commands == nil {
		return answer{report.Unknown, report.AnswerSource{Kind: report.SourceCommandInfoFailed, Command: "EVAL", Error: f.readError(FactCommands)}}
	}
	if !o.commands["eval"] {
		return answer{report.No, report.AnswerSource{Kind: report.SourceCommandNil, Command: "EVAL"}}
	}
	sc := o.scripting
	switch {
	case sc != nil && sc.present && sc.hasEngine("LUA"):
		return answer{report.Yes, report.AnswerSource{Kind: report.SourceLuaEngine}}
	case sc != nil && sc.present:
		return answer{report.No, report.AnswerSource{Kind: report.SourceNoLuaEngine, Engines: sc.engines}}
	case f.Version.IsZero() || rules.Supports(f.Version, rules.LuaOptional):
		// 9.1+ always has the section; without it we cannot tell.
		if _, failed := f.failed(FactLua); sc != nil && !failed {
			return answer{report.Unknown, report.AnswerSource{Kind: report.SourceEnginesEmpty}}
		}
		return answer{report.Unknown, report.AnswerSource{Kind: report.SourceEnginesFailed, Error: f.readError(FactLua)}}
	}
	return answer{report.Yes, report.AnswerSource{Kind: report.SourceLuaBuiltIn}}
}

// readError is the error a fact's read met, as recorded; "" when none
// was recorded.
func (f Facts) readError(fact Fact) string {
	e, _ := f.failed(fact)
	return e.Reason
}
