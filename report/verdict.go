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
	// Legacy holds the reasons of a schema_version 1 or 2 run, which are
	// text only: they are shown as the run recorded them and never read.
	Legacy []string
	// schema2: decode as a schema_version 2 verdict (DecodeRun sets it).
	schema2 bool
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
// what to change first. Every part is a typed value; reasonwords.go words
// them.
type Reason struct {
	Kind ReasonKind `json:"kind"`
	Node NodeRef    `json:"node"`
	// Answer is the node's answer for the command.
	Answer Answer `json:"answer"`
	// Evidence says how the answer is known, or why it is not (kinds
	// lacks, unknown, manual); for kind unsynced, what INFO replication
	// reports of the replica's link.
	Evidence AnswerSource `json:"evidence,omitzero"`
	// Promotion says why the node can, or may, become primary.
	Promotion Promotion `json:"promotion,omitzero"`
	// Gap is what is not known (kind gap).
	Gap FleetGap `json:"gap,omitzero"`
	// Advice is what to change first (kind lacks, when the code relies on
	// the command).
	Advice AdviceKind `json:"advice,omitempty"`
}

// SourceKind says where a node's answer for a command comes from, or why
// it is not known.
type SourceKind uint8

const (
	// SourceCommandInfo: COMMAND INFO named the command (Answer yes).
	SourceCommandInfo SourceKind = iota + 1
	// SourceCommandNil: COMMAND INFO answered nil for the command (unknown,
	// renamed or disabled).
	SourceCommandNil
	// SourceCommandInfoFailed: COMMAND INFO could not be read (Error, "" when no
	// error was recorded); for EVAL, it may be renamed or disabled.
	SourceCommandInfoFailed
	// SourcePredates: COMMAND INFO could not be read (Error), and the node's
	// release predates the command.
	SourcePredates
	// SourceSetTokens: COMMAND DOCS SET listed its condition tokens (Tokens).
	SourceSetTokens
	// SourceSetDocsFailed: COMMAND DOCS SET could not be read (Error).
	SourceSetDocsFailed
	// SourceByVersion: COMMAND DOCS SET could not be read (Error); the node's
	// release decides.
	SourceByVersion
	// SourceLuaEngine: INFO scriptingengines lists a Lua engine.
	SourceLuaEngine
	// SourceNoLuaEngine: INFO scriptingengines lists Engines engines, none Lua.
	SourceNoLuaEngine
	// SourceEnginesEmpty: INFO scriptingengines was read but empty, on a release
	// that always has it (or an unknown one).
	SourceEnginesEmpty
	// SourceEnginesFailed: INFO scriptingengines could not be read (Error), on a
	// release that always has it (or an unknown one).
	SourceEnginesFailed
	// SourceLuaBuiltIn: EVAL is present on a release with Lua built in.
	SourceLuaBuiltIn
	// SourceDeclaredRelease: the node's release was declared (preflight).
	SourceDeclaredRelease
	// SourceDeclaredNoLua: the node was declared without Lua, in Where.
	SourceDeclaredNoLua
	// SourceUnreachable: the node could not be reached (Error).
	SourceUnreachable
	// SourceReadErrors: nothing was decided on the node; Errors are the reads
	// that failed, as recorded ("ROLE: NOPERM ...").
	SourceReadErrors
	// SourceNotRead: nothing was read on the node, and no error says why.
	SourceNotRead
	// SourceLinkDown: INFO replication reports the replica's link down (Link).
	SourceLinkDown
)

var sourceKindEnum = enum[SourceKind]{"evidence kind", []string{
	SourceCommandInfo: "command_info", SourceCommandNil: "command_nil", SourceCommandInfoFailed: "command_info_failed", SourcePredates: "predates",
	SourceSetTokens: "set_tokens", SourceSetDocsFailed: "set_docs_failed", SourceByVersion: "by_version",
	SourceLuaEngine: "lua_engine", SourceNoLuaEngine: "no_lua_engine", SourceEnginesEmpty: "engines_empty", SourceEnginesFailed: "engines_failed", SourceLuaBuiltIn: "lua_built_in",
	SourceDeclaredRelease: "declared", SourceDeclaredNoLua: "declared_no_lua", SourceUnreachable: "unreachable", SourceReadErrors: "read_errors", SourceNotRead: "not_read",
	SourceLinkDown: "link_down"}}

func (k SourceKind) String() string                { return sourceKindEnum.str(k) }
func (k SourceKind) MarshalText() ([]byte, error)  { return sourceKindEnum.marshal(k) }
func (k *SourceKind) UnmarshalText(b []byte) error { return sourceKindEnum.unmarshal(b, k) }

// AnswerSource is how a node's answer is known, or why it is not: which read,
// for which command, and what it gave. The server's release is the
// reason's node's (NodeRef), the command's title the check's.
type AnswerSource struct {
	Kind SourceKind `json:"kind"`
	// Command is the command looked up (DELIFEQ, DELEX, EVAL).
	Command string `json:"command,omitempty"`
	// Error is the error a failed read met, as recorded (a server's reply
	// or a connection error); "" when none was recorded.
	Error string `json:"error,omitempty"`
	// Tokens are COMMAND DOCS SET's condition tokens (SetTokens).
	Tokens []string `json:"tokens,omitempty"`
	// Engines is INFO scriptingengines' engines_count (NoLuaEngine).
	Engines int `json:"engines,omitempty"`
	// Where names where a node was declared without Lua (DeclaredNoLua).
	Where string `json:"where,omitempty"`
	// Errors are the failed reads of a node nothing was decided on
	// (ReadErrors).
	Errors []string `json:"errors,omitempty"`
	// Link is a replica's side of its replication link (LinkDown).
	Link Link `json:"link,omitzero"`
}

// Link is a replica's side of its replication link, as INFO replication
// reports it.
type Link struct {
	Status string `json:"status"` // master_link_status
	// DownSince is master_link_down_since_seconds; -1: never up.
	DownSince int  `json:"down_since"`
	Syncing   bool `json:"syncing,omitempty"` // a full sync is in progress
}

// PromotionKind says why a node can, or cannot, or may become primary.
type PromotionKind uint8

const (
	PromotionPrimary PromotionKind = iota + 1
	// PromotionReplica: a replica outside Sentinel and cluster (REPLICAOF NO ONE
	// or a failover tool promotes it).
	PromotionReplica
	PromotionSentinel
	// PromotionUnreached: the node could not be reached (Error).
	PromotionUnreached
	PromotionRoleUnread
	// PromotionPriority: Sentinel can promote it (replica-priority > 0).
	PromotionPriority
	PromotionPriorityZero
	PromotionPriorityUnread
	// PromotionClusterReplica: a cluster replica fails over automatically.
	PromotionClusterReplica
	// PromotionNoFailover: cluster-replica-no-failover yes (manual only).
	PromotionNoFailover
	PromotionNoFailoverUnread
)

var promotionKindEnum = enum[PromotionKind]{"promotion kind", []string{
	PromotionPrimary: "primary", PromotionReplica: "replica", PromotionSentinel: "sentinel", PromotionUnreached: "unreachable", PromotionRoleUnread: "role_unread",
	PromotionPriority: "replica_priority", PromotionPriorityZero: "replica_priority_0", PromotionPriorityUnread: "replica_priority_unread",
	PromotionClusterReplica: "cluster_replica", PromotionNoFailover: "cluster_no_failover", PromotionNoFailoverUnread: "cluster_no_failover_unread"}}

func (k PromotionKind) String() string                { return promotionKindEnum.str(k) }
func (k PromotionKind) MarshalText() ([]byte, error)  { return promotionKindEnum.marshal(k) }
func (k *PromotionKind) UnmarshalText(b []byte) error { return promotionKindEnum.unmarshal(b, k) }

// Promotion is why a node can, cannot or may become primary.
type Promotion struct {
	Kind     PromotionKind `json:"kind"`
	Priority int           `json:"replica_priority,omitempty"` // PromotionPriority
	Error    string        `json:"error,omitempty"`            // PromotionUnreached: the connection error
}

// GapKind says why the nodes that can become primary are not all known.
type GapKind uint8

const (
	// GapMembersUnlisted: no node could list the cluster's members (Errors).
	GapMembersUnlisted GapKind = iota + 1
	// GapDiscoveryFailed: discovery failed on the node (Errors).
	GapDiscoveryFailed
	// GapRoleUnread: the node's role and replicas could not be read.
	GapRoleUnread
	// GapReplicasUnlisted: the node's replicas could not be listed.
	GapReplicasUnlisted
	// GapPrimaryUnknown: the replica's primary is unknown.
	GapPrimaryUnknown
	// GapPrimaryNotProbed: the replica's primary (Primary) was not probed.
	GapPrimaryNotProbed
	// GapCycle: replicas (Nodes) replicate each other in a cycle.
	GapCycle
	// GapNoPrimary: no primary among the data nodes (Nodes).
	GapNoPrimary
)

var gapKindEnum = enum[GapKind]{"gap kind", []string{
	GapMembersUnlisted: "members_unlisted", GapDiscoveryFailed: "discovery_failed", GapRoleUnread: "role_unread", GapReplicasUnlisted: "replicas_unlisted",
	GapPrimaryUnknown: "primary_unknown", GapPrimaryNotProbed: "primary_not_probed", GapCycle: "cycle", GapNoPrimary: "no_primary"}}

func (k GapKind) String() string                { return gapKindEnum.str(k) }
func (k GapKind) MarshalText() ([]byte, error)  { return gapKindEnum.marshal(k) }
func (k *GapKind) UnmarshalText(b []byte) error { return gapKindEnum.unmarshal(b, k) }

// FleetGap is one reason the nodes that can become primary are not all
// known: about the reason's node, or (GapCycle, NoPrimary) about Nodes.
type FleetGap struct {
	Kind GapKind `json:"kind"`
	// Errors are the failed reads that say why, as recorded; none: not
	// read.
	Errors  []string `json:"errors,omitempty"`
	Primary string   `json:"primary,omitempty"` // GapPrimaryNotProbed
	Nodes   []string `json:"nodes,omitempty"`   // GapCycle (in replication order), GapNoPrimary
}

// AdviceKind says what to change first so that a node stops breaking the
// code's use of a command: what works on its release (the capability
// table's remedies, rules.Remedies, or a server that has the command),
// or else keeping failovers from promoting it.
type AdviceKind uint8

const (
	// AdviseRemedy: what works on its release (a primary).
	AdviseRemedy AdviceKind = iota + 1
	// AdviseRemedyOrPriority: that, or replica-priority 0 (Sentinel then
	// never promotes it).
	AdviseRemedyOrPriority
	// AdviseRemedyOrNoFailover: that, or cluster-replica-no-failover yes.
	AdviseRemedyOrNoFailover
)

var adviceKindEnum = enum[AdviceKind]{"advice", []string{
	AdviseRemedy: "remedy", AdviseRemedyOrPriority: "remedy_or_replica_priority_0", AdviseRemedyOrNoFailover: "remedy_or_cluster_no_failover"}}

func (k AdviceKind) String() string                { return adviceKindEnum.str(k) }
func (k AdviceKind) MarshalText() ([]byte, error)  { return adviceKindEnum.marshal(k) }
func (k *AdviceKind) UnmarshalText(b []byte) error { return adviceKindEnum.unmarshal(b, k) }

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
