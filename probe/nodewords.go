package probe

import (
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// nodeHit is one finding of a node rule as a value: the facts it was
// judged on, worded here and nowhere else. subject is what on the node it
// is about (a command, a fact; "" for a rule that finds at most one thing
// per node), by which comparisons match it across runs.
type nodeHit interface {
	subject() string
	message() string
}

// missingCommand (LA201–LA203): a node that can become primary lacks cmd, a
// command the code relies on; why is how its answer was decided.
type missingCommand struct {
	node      Facts
	cmd       rules.Command
	why       report.AnswerSource
	promotion report.Promotion
}

func (h missingCommand) subject() string { return h.cmd.String() }

func (h missingCommand) message() string {
	feat, versioned := h.cmd.Feature()
	why, promotion := h.why.Words(h.node.ref()), h.promotion.Words()
	if !versioned { // Lua
		return h.node.describe("promotable") + " cannot run Lua (" + why + "); " + promotion
	}
	return h.node.describe("promotable") + " has no " + h.cmd.Title() + " (" + why + "); " + promotion + "; " + h.cmd.Title() + " needs " + rules.Requirement(feat)
}

// unacknowledged (LA204): a primary with replicas and
// min-replicas-to-write 0.
type unacknowledged struct{ replicas int }

func (unacknowledged) subject() string { return "" }

func (h unacknowledged) message() string {
	return "min-replicas-to-write 0 on a primary with " + report.Plural(h.replicas, "replica")
}

// unsynced (LA205): the append-only settings of a node that does not
// fsync every write.
type unsynced struct{ appendonly, appendfsync string }

func (unsynced) subject() string { return "" }

func (h unsynced) message() string {
	if h.appendonly == "no" {
		return "appendonly no"
	}
	return "appendonly yes, appendfsync " + h.appendfsync
}

// evicting (LA206): the memory settings of a node that evicts keys.
type evicting struct{ maxmemory, policy string }

func (evicting) subject() string { return "" }

func (h evicting) message() string {
	s := "maxmemory " + h.maxmemory + ", maxmemory-policy " + h.policy
	if strings.HasPrefix(h.policy, "volatile-") {
		s += " (evicts exactly the keys with a TTL: every lock)"
	}
	return s
}

// skewed (LA207): a replica's clock is by ahead of its primary's (behind
// when negative), beyond threshold, measured over the two round trips.
type skewed struct {
	by              time.Duration
	primary         string
	threshold       time.Duration
	rtt, primaryRTT time.Duration
}

func (skewed) subject() string { return "" }

func (h skewed) message() string {
	dir := "ahead of"
	if h.by < 0 {
		dir = "behind"
	}
	return "clock " + h.by.Abs().Round(time.Millisecond).String() + " " + dir + " primary " + h.primary +
		" (threshold " + h.threshold.String() + "; round trips " + h.rtt.Round(time.Microsecond).String() + " and " + h.primaryRTT.Round(time.Microsecond).String() + ", half taken off)"
}

// unread (LA208): a fact that could not be read.
type unread struct{ err FactError }

func (h unread) subject() string {
	if h.err.Command != "" {
		return h.err.Command
	}
	return string(h.err.Fact)
}

func (h unread) message() string { return h.err.String() + " — unknown: " + neededFor[h.err.Fact] }

// hidden (LA209): a promotable replica at addr that Sentinel does not
// list, though its primary does.
type hidden struct {
	addr, primary string
	promotion     report.Promotion
}

func (hidden) subject() string { return "" }

func (h hidden) message() string {
	return "replica-announced no hides " + h.addr + " from SENTINEL REPLICAS; its primary " + h.primary + " lists it and " + h.promotion.Words()
}

// onRedis (LA210): a Redis node, and what each native lock command needs.
type onRedis struct {
	addr    string
	version rules.Version
}

func (onRedis) subject() string { return "" }

func (h onRedis) message() string {
	var parts []string
	for _, cmd := range rules.Commands() {
		if feat, ok := cmd.Feature(); ok {
			parts = append(parts, cmd.Title()+": "+rules.Requirement(feat))
		}
	}
	return h.addr + " runs " + serverName(h.version) + "; " + strings.Join(parts, "; ")
}

// outOfSync (LA214): a promotable replica whose link to its primary is
// down; olderThan is the primary's release when the replica's is older
// (zero otherwise).
type outOfSync struct {
	node      Facts
	link      *replicaLink
	olderThan rules.Version
	promotion report.Promotion
}

func (outOfSync) subject() string { return "" }

func (h outOfSync) message() string {
	msg := h.node.describe() + " is not in sync with its primary " + h.node.Primary + " (" + h.link.evidence().Words(h.node.ref()) + ")"
	if !h.olderThan.IsZero() {
		msg += "; it runs " + serverName(h.node.Version) + ", older than its primary's " + serverName(h.olderThan) +
			": an older release may be unable to load a newer primary's snapshot (RDB) format, and then never syncs"
	}
	return msg + "; " + h.promotion.Words() + ": promoted, it holds none of the locks written since"
}

// report is the link as the verdict's reasons carry it.
func (l *replicaLink) report() report.Link {
	return report.Link{Status: l.status, DownSince: l.downSince, Syncing: l.syncing}
}

// evidence is what INFO replication reports of the link (report words it).
func (l *replicaLink) evidence() report.AnswerSource {
	return report.AnswerSource{Kind: report.SourceLinkDown, Link: l.report()}
}
