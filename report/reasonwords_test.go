package report

import (
	"testing"

	"github.com/lockaudit/lockaudit/rules"
)

// TestReasonPartWords: every kind of every typed part of a reason has its
// words, and they are the sentences the probe wrote before the parts were
// typed (schema_version 2 runs hold them), word for word.
func TestReasonPartWords(t *testing.T) {
	n := NodeRef{Addr: "10.0.0.7:6379", Role: RoleReplica, Server: "valkey", Version: "8.1.1"}
	bare := NodeRef{Addr: "10.0.0.8:6379", Role: RoleUnknown}
	sources := []struct {
		s    AnswerSource
		node NodeRef
		want string
	}{
		{AnswerSource{Kind: SourceCommandInfo, Command: "DELEX"}, n, "COMMAND INFO DELEX: present"},
		{AnswerSource{Kind: SourceCommandNil, Command: "DELIFEQ"}, n, "COMMAND INFO DELIFEQ: nil (unknown command)"},
		{AnswerSource{Kind: SourceCommandNil, Command: "EVAL"}, n, "COMMAND INFO EVAL: nil (EVAL is renamed or disabled)"},
		{AnswerSource{Kind: SourceCommandInfoFailed, Error: "NOPERM no"}, n, "COMMAND INFO: NOPERM no"},
		{AnswerSource{Kind: SourceCommandInfoFailed, Command: "EVAL"}, n, "COMMAND INFO EVAL unreadable (EVAL may be renamed or disabled)"},
		{AnswerSource{Kind: SourcePredates, Command: "DELIFEQ"}, n, "Valkey 8.1.1 predates DELIFEQ (COMMAND INFO unreadable)"},
		{AnswerSource{Kind: SourceSetTokens, Tokens: []string{"NX", "XX", "IFEQ"}}, n, "COMMAND DOCS SET: condition tokens NX XX IFEQ"},
		{AnswerSource{Kind: SourceSetTokens}, n, "COMMAND DOCS SET: condition tokens none (no IFEQ)"},
		{AnswerSource{Kind: SourceSetDocsFailed, Error: "ERR x"}, n, "COMMAND DOCS SET: ERR x"},
		{AnswerSource{Kind: SourceByVersion}, n, "by version: Valkey 8.1.1 (COMMAND DOCS SET unreadable)"},
		{AnswerSource{Kind: SourceLuaEngine}, n, "INFO scriptingengines: Lua engine loaded"},
		{AnswerSource{Kind: SourceNoLuaEngine, Engines: 1}, n, "INFO scriptingengines: engines_count:1, no Lua engine"},
		{AnswerSource{Kind: SourceEnginesEmpty}, n, "Valkey 8.1.1: INFO scriptingengines is empty"},
		{AnswerSource{Kind: SourceEnginesFailed, Error: "NOPERM"}, bare, "INFO server unreadable, and INFO scriptingengines: NOPERM"},
		{AnswerSource{Kind: SourceLuaBuiltIn}, n, "Valkey 8.1.1 has Lua built in (EVAL present)"},
		{AnswerSource{Kind: SourceDeclaredRelease}, n, "declared valkey-8.1.1"},
		{AnswerSource{Kind: SourceDeclaredNoLua, Where: "fleet.yaml"}, n, "declared lua: false in fleet.yaml"},
		{AnswerSource{Kind: SourceUnreachable, Error: "i/o timeout"}, bare, "not reachable: i/o timeout"},
		{AnswerSource{Kind: SourceReadErrors, Errors: []string{"ROLE: NOPERM", "INFO server: ERR"}}, bare, "ROLE: NOPERM; INFO server: ERR"},
		{AnswerSource{Kind: SourceNotRead}, bare, "not read"},
		{AnswerSource{Kind: SourceLinkDown, Link: Link{Status: "down", DownSince: 5, Syncing: true}}, n, "INFO replication: master_link_status:down, down for 5s, a full sync in progress"},
		{AnswerSource{Kind: SourceLinkDown, Link: Link{Status: "down", DownSince: -1}}, n, "INFO replication: master_link_status:down, never up (master_link_down_since_seconds -1)"},
	}
	seen := map[SourceKind]bool{}
	for _, tc := range sources {
		seen[tc.s.Kind] = true
		if got := tc.s.Words(tc.node); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.s.Kind, got, tc.want)
		}
	}
	for k := range SourceKind(len(sourceKindEnum.words)) {
		if sourceKindEnum.valid(k) && !seen[k] {
			t.Errorf("evidence kind %s has no case here", k)
		}
	}

	promotions := map[Promotion]string{
		{Kind: PromotionPrimary}:                     "it is a primary",
		{Kind: PromotionReplica}:                     "a replica can be promoted (REPLICAOF NO ONE or a failover tool)",
		{Kind: PromotionSentinel}:                    "a Sentinel holds no data",
		{Kind: PromotionUnreached, Error: "refused"}: "it could not be reached (refused)",
		{Kind: PromotionRoleUnread}:                  "its role could not be read",
		{Kind: PromotionPriority, Priority: 100}:     "replica-priority 100: Sentinel can promote it",
		{Kind: PromotionPriorityZero}:                "replica-priority 0: Sentinel never promotes it",
		{Kind: PromotionPriorityUnread}:              "its replica-priority could not be read",
		{Kind: PromotionClusterReplica}:              "a cluster replica fails over automatically",
		{Kind: PromotionNoFailover}:                  "cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it",
		{Kind: PromotionNoFailoverUnread}:            "whether it has cluster-replica-no-failover could not be read",
	}
	if len(promotions) != len(promotionKindEnum.words)-1 {
		t.Errorf("%d promotion kinds worded here, %d exist", len(promotions), len(promotionKindEnum.words)-1)
	}
	for p, want := range promotions {
		if got := p.Words(); got != want {
			t.Errorf("%s: %q, want %q", p.Kind, got, want)
		}
	}

	gaps := map[GapKind]struct {
		g    FleetGap
		want string
	}{
		GapMembersUnlisted:  {FleetGap{Errors: []string{"CLUSTER SHARDS: NOPERM"}}, "replica 10.0.0.7:6379 (Valkey 8.1.1): the cluster's members could not be listed (CLUSTER SHARDS: NOPERM)"},
		GapDiscoveryFailed:  {FleetGap{Errors: []string{"3 nodes it named were not probed"}}, "replica 10.0.0.7:6379 (Valkey 8.1.1): 3 nodes it named were not probed"},
		GapRoleUnread:       {FleetGap{}, "replica 10.0.0.7:6379 (Valkey 8.1.1): its role and replicas could not be read (not read)"},
		GapReplicasUnlisted: {FleetGap{Errors: []string{"INFO replication: ERR"}}, "replica 10.0.0.7:6379 (Valkey 8.1.1): its replicas could not be listed (INFO replication: ERR)"},
		GapPrimaryUnknown:   {FleetGap{Errors: []string{"ROLE: ERR", "INFO replication: ERR"}}, "replica 10.0.0.7:6379 (Valkey 8.1.1): its primary is unknown (ROLE: ERR; INFO replication: ERR)"},
		GapPrimaryNotProbed: {FleetGap{Primary: "10.0.0.9:6379"}, "replica 10.0.0.7:6379 (Valkey 8.1.1): its primary 10.0.0.9:6379 was not probed"},
		GapCycle:            {FleetGap{Nodes: []string{"a:1", "b:1"}}, "replicas a:1 → b:1 → a:1 replicate each other in a cycle: none of them takes writes, and which one will is unknown"},
		GapNoPrimary:        {FleetGap{Nodes: []string{"a:1", "b:1"}}, "no primary among the data nodes found (a:1, b:1): which node takes writes is unknown"},
	}
	if len(gaps) != len(gapKindEnum.words)-1 {
		t.Errorf("%d gap kinds worded here, %d exist", len(gaps), len(gapKindEnum.words)-1)
	}
	for k, tc := range gaps {
		tc.g.Kind = k
		if got := tc.g.Words(n); got != tc.want {
			t.Errorf("%s: %q, want %q", k, got, tc.want)
		}
	}
	if got := (FleetGap{Kind: GapCycle, Nodes: []string{"a:1"}}).Words(n); got != "replica a:1 replicates itself: no node takes writes, and which one will is unknown" {
		t.Errorf("a cycle of one: %q", got)
	}

	primary := NodeRef{Addr: "10.0.0.1:6379", Role: RolePrimary, Server: "valkey", Version: "8.1.1"}
	advice := []struct {
		k    AdviceKind
		node NodeRef
		c    rules.Command
		want string
	}{
		{AdviseRemedy, primary, rules.UseDELIFEQ, "upgrade 10.0.0.1:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ"},
		{AdviseRemedyOrPriority, n, rules.UseDELIFEQ, "upgrade 10.0.0.7:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its replica-priority 0 (Sentinel then never promotes it)"},
		{AdviseRemedyOrNoFailover, n, rules.UseDELIFEQ, "upgrade 10.0.0.7:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)"},
		{AdviseRemedy, bare, rules.UseDELIFEQ, "upgrade 10.0.0.8:6379 to a server with DELIFEQ (" + rules.Requirement(rules.DELIFEQ) + ") before releasing with DELIFEQ"},
	}
	for _, tc := range advice {
		if got := tc.k.Words(tc.node, tc.c); got != tc.want {
			t.Errorf("%s on %s: %q, want %q", tc.k, tc.node.Addr, got, tc.want)
		}
	}
}
