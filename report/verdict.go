package report

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// The words of a verdict in the JSON form and every report: a native path
// is safe or unsafe, Lua is available or missing, and either can be
// unknown (Unknown.String()).
const (
	Safe      = "safe"
	Unsafe    = "unsafe"
	Available = "available"
	Missing   = "missing"
)

// Verdict answers, for each lock path, "does every node that can become
// primary support it?". It is never good without evidence.
type Verdict struct {
	// FromCode: the commands relied on were derived from the code (audit,
	// preflight), so each reason ties its path to the code's sites, and a
	// command the code does not send is not relied on. Otherwise they were
	// named by probe -uses, and reasons speak of the fleet alone.
	FromCode bool
	// Paths has one entry per rules.Paths(), in that order (NewVerdict).
	Paths []PathVerdict
	// Legacy holds the reasons of a schema_version 1 run, which are text
	// only: they are shown as the run recorded them and never read.
	Legacy []string
}

// PathVerdict is one lock path's verdict and the checks that decide it.
type PathVerdict struct {
	Path rules.Path
	// Safe is Yes when every node that can become primary supports the
	// path (safe; available for Lua), No when one does not, else Unknown.
	// It is the worst of the checks' when there are checks (a schema 1 run
	// has none).
	Safe   Answer
	Checks []Check
}

// Check is one command of a path judged over the fleet: the release path
// judges DELIFEQ and/or DELEX, each on its own.
type Check struct {
	Command rules.Command
	// ReliedOn: the run relies on the command — the code sends it (the
	// verdict is FromCode), or probe -uses names it.
	ReliedOn bool
	// Sites are where the code sends the command (FromCode).
	Sites []Site
	// Nodes counts the data nodes judged; Supported those not excluded
	// from promotion that have the command.
	Nodes, Supported int
	// Reasons are what keeps the check from being good, and notes.
	Reasons []Reason
}

// ReasonKind says what a reason is about.
type ReasonKind uint8

const (
	// Lacks: a node that can become primary lacks the command.
	Lacks ReasonKind = iota + 1
	// Unread: a node's answer, or whether it can become primary, is not
	// known.
	Unread
	// Gap: not every node that can become primary is known.
	Gap
	// ManualOnly: a node that only a manual failover promotes lacks the
	// command or may lack it (a note; it does not change the verdict).
	ManualOnly
	// Unsynced: a replica that can become primary is not in sync with its
	// primary (its replication link is down): promoted, it holds none of
	// the locks written since. A note on every check (LA214 is the
	// finding); it does not change the verdict, which is about commands.
	Unsynced
)

var reasonKindEnum = enum[ReasonKind]{"reason kind", []string{Lacks: "lacks", Unread: "unknown", Gap: "gap", ManualOnly: "manual", Unsynced: "unsynced"}}

// Valid reports whether k is one of the kinds.
func (k ReasonKind) Valid() bool { return reasonKindEnum.valid(k) }

func (k ReasonKind) String() string                { return reasonKindEnum.str(k) }
func (k ReasonKind) MarshalText() ([]byte, error)  { return reasonKindEnum.marshal(k) }
func (k *ReasonKind) UnmarshalText(b []byte) error { return reasonKindEnum.unmarshal(b, k) }

// Reason is one node that keeps a check from being good (or a note about
// one), with how it is known and, when the code relies on the command,
// what to change first.
type Reason struct {
	Kind ReasonKind `json:"kind"`
	Node NodeRef    `json:"node"`
	// Answer is the node's answer for the command.
	Answer Answer `json:"answer"`
	// Evidence says how the answer is known, or why it is not
	// ("COMMAND INFO DELIFEQ: nil (unknown command)").
	Evidence string `json:"evidence,omitempty"`
	// Promotion says why the node can, or may, become primary.
	Promotion string `json:"promotion,omitempty"`
	// Gap is what is not known (kind gap).
	Gap string `json:"gap,omitempty"`
	// Advice is what to change first (kind lacks, when the code relies on
	// the command).
	Advice string `json:"advice,omitempty"`
}

// NodeRef names a node in a reason, with what its description needs.
type NodeRef struct {
	Addr    string `json:"addr"`
	Role    string `json:"role,omitempty"`
	Server  string `json:"server,omitempty"`
	Version string `json:"version,omitempty"`
	// Target is set on a node declared by preflight -target: it stands for
	// every node of that release.
	Target string `json:"target,omitempty"`
}

// NewVerdict returns a verdict with every path unknown and no check.
func NewVerdict() *Verdict {
	v := &Verdict{}
	for _, p := range rules.Paths() {
		v.Paths = append(v.Paths, PathVerdict{Path: p})
	}
	return v
}

// Of returns the path's verdict (an unknown one when the verdict lacks it).
func (v *Verdict) Of(p rules.Path) PathVerdict {
	for _, pv := range v.Paths {
		if pv.Path == p {
			return pv
		}
	}
	return PathVerdict{Path: p}
}

// For is the verdict that decides a command the code relies on.
func (v *Verdict) For(c rules.Command) Answer { return v.Of(c.Path()).Safe }

// Summary is the verdict on one line, for logs and stderr: "release
// unsafe, extend safe, lua available".
func (v *Verdict) Summary() string {
	return fmt.Sprintf("release %s, extend %s, lua %s", v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word(), v.Of(rules.LuaScripts).Word())
}

// Word is the verdict's word: safe, unsafe or unknown; available, missing
// or unknown for Lua.
func (pv PathVerdict) Word() string { return VerdictWord(pv.Path, pv.Safe) }

// VerdictWord words an answer about a path.
func VerdictWord(p rules.Path, a Answer) string {
	good, bad := Safe, Unsafe
	if p == rules.LuaScripts {
		good, bad = Available, Missing
	}
	switch a {
	case Yes:
		return good
	case No:
		return bad
	}
	return Unknown.String()
}

// VerdictWords lists a path's words, good first (the JSON contract's
// order).
func VerdictWords(p rules.Path) []string {
	return []string{VerdictWord(p, Yes), VerdictWord(p, No), VerdictWord(p, Unknown)}
}

// parseVerdictWord reads a path's word.
func parseVerdictWord(p rules.Path, s string) (Answer, error) {
	for _, a := range []Answer{Yes, No, Unknown} {
		if VerdictWord(p, a) == s {
			return a, nil
		}
	}
	return Unknown, fmt.Errorf("%q is not one of %s", s, strings.Join(VerdictWords(p), ", "))
}

// Safe is the check's own verdict: No when a node that can become primary
// lacks the command, Unknown when one is not known (or no node was found,
// or not every node that can become primary is known), else Yes.
func (c Check) Safe() Answer {
	state := Yes
	if c.Nodes == 0 {
		state = Unknown
	}
	for _, r := range c.Reasons {
		switch r.Kind {
		case Lacks:
			return No
		case Unread, Gap:
			state = Unknown
		}
	}
	return state
}
