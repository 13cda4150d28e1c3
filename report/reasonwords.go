package report

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/rules"
)

// This file words the typed parts of a reason — how an answer is known
// (AnswerSource), why a node can become primary (Promotion), what is not known
// (FleetGap), what to change first (AdviceKind) — and names nodes. The
// verdict's lines (reasons.go) and the probe's node findings (LA201–LA203,
// LA208, LA209, LA214) word them here, and nowhere else.

// Words says how the answer of node n is known, or why it is not:
// "COMMAND INFO DELIFEQ: nil (unknown command)".
func (s AnswerSource) Words(n NodeRef) string {
	switch s.Kind {
	case SourceCommandInfo:
		return "COMMAND INFO " + s.Command + ": present"
	case SourceCommandNil:
		if s.Command == "EVAL" {
			return "COMMAND INFO EVAL: nil (EVAL is renamed or disabled)"
		}
		return "COMMAND INFO " + s.Command + ": nil (unknown command)"
	case SourceCommandInfoFailed:
		if s.Command == "EVAL" {
			return failedRead("COMMAND INFO EVAL", s.Error) + " (EVAL may be renamed or disabled)"
		}
		return failedRead("COMMAND INFO", s.Error)
	case SourcePredates:
		return n.server() + " predates " + s.Command + " (" + failedRead("COMMAND INFO", s.Error) + ")"
	case SourceSetTokens:
		list := "none"
		if len(s.Tokens) > 0 {
			list = strings.Join(s.Tokens, " ")
		}
		if slices.Contains(s.Tokens, "IFEQ") {
			return "COMMAND DOCS SET: condition tokens " + list
		}
		return "COMMAND DOCS SET: condition tokens " + list + " (no IFEQ)"
	case SourceSetDocsFailed:
		return failedRead("COMMAND DOCS SET", s.Error)
	case SourceByVersion:
		return "by version: " + n.server() + " (" + failedRead("COMMAND DOCS SET", s.Error) + ")"
	case SourceLuaEngine:
		return "INFO scriptingengines: Lua engine loaded"
	case SourceNoLuaEngine:
		return "INFO scriptingengines: engines_count:" + strconv.Itoa(s.Engines) + ", no Lua engine"
	case SourceEnginesEmpty, SourceEnginesFailed:
		section := "INFO scriptingengines is empty"
		if s.Kind == SourceEnginesFailed {
			section = failedRead("INFO scriptingengines", s.Error)
		}
		if n.Version == "" {
			return "INFO server unreadable, and " + section
		}
		return n.server() + ": " + section
	case SourceLuaBuiltIn:
		return n.server() + " has Lua built in (EVAL present)"
	case SourceDeclaredRelease:
		return "declared " + n.release().String()
	case SourceDeclaredNoLua:
		return "declared lua: false in " + s.Where
	case SourceUnreachable:
		return "not reachable: " + s.Error
	case SourceReadErrors:
		return strings.Join(s.Errors, "; ")
	case SourceNotRead:
		return "not read"
	case SourceLinkDown:
		return s.Link.words()
	}
	return ""
}

// failedRead says why a read failed: "COMMAND INFO: NOPERM ..." with the
// recorded error, else "COMMAND INFO unreadable".
func failedRead(what, err string) string {
	if err != "" {
		return what + ": " + err
	}
	return what + " unreadable"
}

// words says what INFO replication reports of a replica's link.
func (l Link) words() string {
	s := "INFO replication: master_link_status:" + l.Status
	if l.DownSince < 0 {
		s += ", never up (master_link_down_since_seconds -1)"
	} else {
		s += ", down for " + (time.Duration(l.DownSince) * time.Second).String()
	}
	if l.Syncing {
		s += ", a full sync in progress"
	}
	return s
}

// Words says why a node can, cannot, or may become primary.
func (p Promotion) Words() string {
	switch p.Kind {
	case PromotionPrimary:
		return "it is a primary"
	case PromotionReplica:
		return "a replica can be promoted (REPLICAOF NO ONE or a failover tool)"
	case PromotionSentinel:
		return "a Sentinel holds no data"
	case PromotionUnreached:
		return "it could not be reached (" + p.Error + ")"
	case PromotionRoleUnread:
		return "its role could not be read"
	case PromotionPriority:
		return "replica-priority " + strconv.Itoa(p.Priority) + ": Sentinel can promote it"
	case PromotionPriorityZero:
		return "replica-priority 0: Sentinel never promotes it"
	case PromotionPriorityUnread:
		return "its replica-priority could not be read"
	case PromotionClusterReplica:
		return "a cluster replica fails over automatically"
	case PromotionNoFailover:
		return "cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it"
	case PromotionNoFailoverUnread:
		return "whether it has cluster-replica-no-failover could not be read"
	}
	return ""
}

// Words says what is not known about node n's part of the fleet.
func (g FleetGap) Words(n NodeRef) string {
	why := strings.Join(g.Errors, "; ")
	if why == "" {
		why = "not read"
	}
	switch g.Kind {
	case GapMembersUnlisted:
		return n.Describe() + ": the cluster's members could not be listed (" + why + ")"
	case GapDiscoveryFailed:
		return n.Describe() + ": " + why
	case GapRoleUnread:
		return n.Describe() + ": its role and replicas could not be read (" + why + ")"
	case GapReplicasUnlisted:
		return n.Describe() + ": its replicas could not be listed (" + why + ")"
	case GapPrimaryUnknown:
		return n.Describe() + ": its primary is unknown (" + why + ")"
	case GapPrimaryNotProbed:
		return n.Describe() + ": its primary " + g.Primary + " was not probed"
	case GapCycle:
		if len(g.Nodes) == 1 {
			return "replica " + g.Nodes[0] + " replicates itself: no node takes writes, and which one will is unknown"
		}
		return "replicas " + strings.Join(g.Nodes, " → ") + " → " + g.Nodes[0] + " replicate each other in a cycle: none of them takes writes, and which one will is unknown"
	case GapNoPrimary:
		return "no primary among the data nodes found (" + strings.Join(g.Nodes, ", ") + "): which node takes writes is unknown"
	}
	return ""
}

// before says when the fix must be done, for advice.
var before = map[rules.Path]string{
	rules.NativeRelease: "before releasing with ",
	rules.NativeExtend:  "before extending with ",
	rules.LuaScripts:    "before running the code's ",
}

// Words says what must change first so that node n stops breaking the
// code's use of c: what works on its release (Remedy: another command it
// has, an upgrade, a move, a Lua engine), or keeping failovers from
// promoting it.
func (k AdviceKind) Words(n NodeRef, c rules.Command) string {
	when := before[c.Path()] + c.Title()
	feature, versioned := c.Feature()
	if !versioned {
		feature = rules.Lua
	}
	v := n.release()
	who, from := n.Addr, v.String()
	if n.Target != "" {
		who, from = "every "+n.Target+" node that can become primary", n.Target
	}
	fix := Remedy(who, from, v, feature, when)
	if fix == "" {
		fix = "replace " + who + " with a server that has " + c.Title() + " " + when
	}
	switch k {
	case AdviseRemedyOrNoFailover:
		fix += ", or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)"
	case AdviseRemedyOrPriority:
		fix += ", or set its replica-priority 0 (Sentinel then never promotes it)"
	}
	return fix
}

// release is the node's release, zero when unknown.
func (n NodeRef) release() rules.Version {
	v, err := rules.ParseVersion(rules.Flavor(n.Server), n.Version)
	if err != nil {
		return rules.Version{}
	}
	return v
}

// server names the node's server: "Valkey 8.1.1".
func (n NodeRef) server() string { return ServerName(n.Server, n.Version) }

// Describe names a node for reasons and findings: "replica 127.0.0.1:7002
// (Valkey 8.1.1, promotable)"; extra qualifiers join the version in
// parentheses.
func (n NodeRef) Describe(extra ...string) string {
	if n.Target != "" {
		return "every " + n.Target + " node (" + strings.Join(append([]string{"declared by -target"}, extra...), ", ") + ")"
	}
	s := n.Addr
	if n.Role != "" && n.Role != Unknown.String() {
		s = n.Role + " " + s
	}
	var quals []string
	if n.Version != "" {
		quals = append(quals, ServerName(n.Server, n.Version))
	}
	quals = append(quals, extra...)
	if len(quals) > 0 {
		s += " (" + strings.Join(quals, ", ") + ")"
	}
	return s
}

// ServerName prints "Valkey 8.1.1" or "Redis 7.0.15" from a node's server
// and version, "unknown server" for a server that is neither.
func ServerName(server, version string) string {
	fl := rules.Flavor(server)
	if fl != rules.Valkey && fl != rules.Redis {
		return "unknown server"
	}
	return fl.Title() + " " + version
}
