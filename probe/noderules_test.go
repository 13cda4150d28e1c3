package probe

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// ruleCase is one node given to one rule, and the messages it must give
// (none for a negative case).
type ruleCase struct {
	name string
	node Facts
	ctx  nodeContext
	want []string
}

// promotable is the context of a node that can become primary, relying
// on relied.
func promotable(relied ...rules.Command) nodeContext {
	return nodeContext{promotable: report.PromotableYes, promotion: report.Promotion{Kind: report.PromotionPrimary}, relied: relied, skew: DefaultSkew}
}

func runRule(t *testing.T, check func(judged, *nodeContext) []nodeHit, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.ctx
			n := judged{Facts: tc.node, answers: decide(tc.node), promotable: c.promotable, promotion: c.promotion}
			var got []string
			for _, h := range check(n, &c) {
				got = append(got, h.message())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("messages:\n  %q\nwant:\n  %q", got, tc.want)
			}
		})
	}
}

func TestNodeRulesTable(t *testing.T) {
	var ids []string
	for _, r := range nodeRules {
		ids = append(ids, string(r.id))
		rule, ok := rules.Get(r.id)
		if !ok || rule.Kind != rules.Node {
			t.Errorf("%s is not a node rule of the catalog", r.id)
		}
		if r.everyNode != (r.id == "LA208") {
			t.Errorf("%s: everyNode %t (only LA208 speaks of nodes that did not answer)", r.id, r.everyNode)
		}
	}
	if want := []string{"LA201", "LA202", "LA203", "LA204", "LA205", "LA206", "LA207", "LA208", "LA209", "LA210", "LA214"}; !slices.Equal(ids, want) {
		t.Errorf("node rules %v, want %v", ids, want)
	}
}

func TestLA201(t *testing.T) {
	old := probed(t, "10.0.0.2:6379", RoleReplica, "valkey-8.1.1")
	v92 := probed(t, "10.0.0.3:6379", RolePrimary, "valkey-9.2.0")
	manual := promotable(rules.UseDELIFEQ)
	manual.promotable = report.PromotableManual
	runRule(t, la201, []ruleCase{
		{"lacks DELIFEQ the code relies on", old, promotable(rules.UseDELIFEQ), []string{
			"replica 10.0.0.2:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (COMMAND INFO DELIFEQ: nil (unknown command)); it is a primary; DELIFEQ needs Valkey 9.0+, no Redis version"}},
		{"DELIFEQ and DELEX, each its own finding", old, promotable(rules.UseDELIFEQ, rules.UseDELEX), []string{
			"replica 10.0.0.2:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (COMMAND INFO DELIFEQ: nil (unknown command)); it is a primary; DELIFEQ needs Valkey 9.0+, no Redis version",
			"replica 10.0.0.2:6379 (Valkey 8.1.1, promotable) has no DELEX (COMMAND INFO DELEX: nil (unknown command)); it is a primary; DELEX needs Valkey 9.2+, Redis 8.4+"}},
		{"not relied on", old, promotable(rules.UseIFEQ), nil},
		{"has it", v92, promotable(rules.UseDELIFEQ, rules.UseDELEX), nil},
		{"only a manual failover promotes it", old, manual, nil},
		{"unknown is not no", unreachable("10.0.0.4:6379"), promotable(rules.UseDELIFEQ), nil},
	})
}

func TestLA202(t *testing.T) {
	runRule(t, la202, []ruleCase{
		{"8.0 lacks SET IFEQ", probed(t, "10.0.0.2:6379", RoleReplica, "valkey-8.0.1"), promotable(rules.UseIFEQ), []string{
			"replica 10.0.0.2:6379 (Valkey 8.0.1, promotable) has no SET IFEQ (COMMAND DOCS SET: condition tokens NX XX (no IFEQ)); it is a primary; SET IFEQ needs Valkey 8.1+, Redis 8.4+"}},
		{"8.1 has it", probed(t, "10.0.0.2:6379", RoleReplica, "valkey-8.1.1"), promotable(rules.UseIFEQ), nil},
		{"not relied on", probed(t, "10.0.0.2:6379", RoleReplica, "valkey-8.0.1"), promotable(rules.UseDELIFEQ), nil},
	})
}

func TestLA203(t *testing.T) {
	noLua := noLua(probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.1.2"))
	never := promotable(rules.UseLua)
	never.promotable = report.PromotableNo
	runRule(t, la203, []ruleCase{
		{"no Lua engine", noLua, promotable(rules.UseLua), []string{
			"primary 10.0.0.1:6379 (Valkey 9.1.2, promotable) cannot run Lua (INFO scriptingengines: engines_count:0, no Lua engine); it is a primary"}},
		{"Lua not relied on", noLua, promotable(rules.UseDELIFEQ), nil},
		{"never promoted", noLua, never, nil},
		{"has Lua", probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.1.2"), promotable(rules.UseLua), nil},
	})
}

func TestLA204(t *testing.T) {
	prim := func(replicas int, minReplicas string) Facts {
		f := probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.1.2")
		f.Replicas, f.Config["min-replicas-to-write"] = replicas, minReplicas
		return f
	}
	runRule(t, la204, []ruleCase{
		{"replicas, none required", prim(2, "0"), promotable(), []string{"min-replicas-to-write 0 on a primary with 2 replicas"}},
		{"one required", prim(2, "1"), promotable(), nil},
		{"no replica", prim(0, "0"), promotable(), nil},
		{"replicas unknown", prim(-1, "0"), promotable(), nil},
		{"a replica", func() Facts { f := prim(2, "0"); f.Role = RoleReplica; return f }(), promotable(), nil},
	})
}

func TestLA205(t *testing.T) {
	aof := func(on, fsync string) Facts {
		f := probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.1.2")
		f.Config["appendonly"], f.Config["appendfsync"] = on, fsync
		return f
	}
	never := promotable()
	never.promotable = report.PromotableNo
	unknown := promotable()
	unknown.promotable = report.PromotableUnknown
	runRule(t, la205, []ruleCase{
		{"no AOF", aof("no", "always"), promotable(), []string{"appendonly no"}},
		{"AOF fsync everysec", aof("yes", "everysec"), promotable(), []string{"appendonly yes, appendfsync everysec"}},
		{"promotability unknown still counts", aof("no", ""), unknown, []string{"appendonly no"}},
		{"fsync always", aof("yes", "always"), promotable(), nil},
		{"fsync not read", aof("yes", ""), promotable(), nil},
		{"never promoted", aof("no", ""), never, nil},
	})
}

func TestLA206(t *testing.T) {
	mem := func(max, policy string) Facts {
		f := probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.1.2")
		f.Config["maxmemory"], f.Config["maxmemory-policy"] = max, policy
		return f
	}
	runRule(t, la206, []ruleCase{
		{"volatile policy", mem("1073741824", "volatile-lru"), promotable(), []string{"maxmemory 1073741824, maxmemory-policy volatile-lru (evicts exactly the keys with a TTL: every lock)"}},
		{"allkeys policy", mem("1073741824", "allkeys-lfu"), promotable(), []string{"maxmemory 1073741824, maxmemory-policy allkeys-lfu"}},
		{"noeviction", mem("1073741824", "noeviction"), promotable(), nil},
		{"no limit", mem("0", "volatile-lru"), promotable(), nil},
		{"not read", mem("", ""), promotable(), nil},
	})
}

func TestLA207(t *testing.T) {
	prim := probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.1.2")
	prim.Clock = &Clock{Offset: 5 * time.Millisecond, RTT: time.Millisecond}
	rep := func(offset time.Duration) Facts {
		f := replicaOf(probed(t, "10.0.0.2:6379", RoleReplica, "valkey-9.1.2"), prim.Addr)
		f.Clock = &Clock{Offset: prim.Clock.Offset + offset, RTT: 2 * time.Millisecond}
		return f
	}
	ctx := promotable()
	ctx.byAddr = map[string]Facts{prim.Addr: prim}
	far := ctx
	far.byAddr = map[string]Facts{}
	runRule(t, la207, []ruleCase{
		{"ahead", rep(80 * time.Millisecond), ctx, []string{"clock 80ms ahead of primary 10.0.0.1:6379 (threshold 50ms; round trips 2ms and 1ms, half taken off)"}},
		{"behind", rep(-80 * time.Millisecond), ctx, []string{"clock 80ms behind primary 10.0.0.1:6379 (threshold 50ms; round trips 2ms and 1ms, half taken off)"}},
		{"within the threshold", rep(30 * time.Millisecond), ctx, nil},
		{"primary not probed", rep(80 * time.Millisecond), far, nil},
		{"clock not read", func() Facts { f := rep(80 * time.Millisecond); f.Clock = nil; return f }(), ctx, nil},
		{"the primary itself", prim, ctx, nil},
	})
}

func TestLA208(t *testing.T) {
	f := probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.1.2")
	f.Errors = []FactError{{Fact: FactConfig, Command: "CONFIG GET", Reason: "NOPERM this user has no permissions to run the 'config|get' command"}}
	runRule(t, la208, []ruleCase{
		{"a fact not read", f, promotable(), []string{"CONFIG GET: NOPERM this user has no permissions to run the 'config|get' command — unknown: " + neededFor[FactConfig]}},
		{"not reached", unreachable("10.0.0.4:6379"), promotable(), []string{"connection: dial tcp 10.0.0.4:6379: connect: connection refused — unknown: every answer about this node"}},
		{"everything read", probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.1.2"), promotable(), nil},
	})
}

func TestLA209(t *testing.T) {
	hidden := replicaOf(probed(t, "10.0.0.2:6379", RoleReplica, "valkey-9.1.2"), "10.0.0.1:6379")
	hidden.Hidden = true
	ctx := promotable()
	ctx.promotion = report.Promotion{Kind: report.PromotionPriority, Priority: 100}
	never := ctx
	never.promotable = report.PromotableNo
	runRule(t, la209, []ruleCase{
		{"hidden and promotable", hidden, ctx, []string{"replica-announced no hides 10.0.0.2:6379 from SENTINEL REPLICAS; its primary 10.0.0.1:6379 lists it and replica-priority 100: Sentinel can promote it"}},
		{"hidden, never promoted", hidden, never, nil},
		{"listed", replicaOf(probed(t, "10.0.0.2:6379", RoleReplica, "valkey-9.1.2"), "10.0.0.1:6379"), ctx, nil},
	})
}

func TestLA210(t *testing.T) {
	runRule(t, la210, []ruleCase{
		{"Redis", probed(t, "10.0.0.1:6379", RolePrimary, "redis-8.4.0"), promotable(), []string{
			"10.0.0.1:6379 runs Redis 8.4.0; DELIFEQ: Valkey 9.0+, no Redis version; DELEX: Valkey 9.2+, Redis 8.4+; SET IFEQ: Valkey 8.1+, Redis 8.4+"}},
		{"Valkey", probed(t, "10.0.0.1:6379", RolePrimary, "valkey-9.2.0"), promotable(), nil},
	})
}

func TestLA214(t *testing.T) {
	const p, r = "10.0.0.1:6379", "10.0.0.2:6379"
	prim := probed(t, p, RolePrimary, "redis-8.6.3")
	rep := func(version string, l replicaLink) Facts {
		f := replicaOf(probed(t, r, RoleReplica, version), p)
		f.seen.link = &l
		return f
	}
	never := replicaLink{status: "down", downSince: -1}
	ctx := promotable()
	ctx.promotion = report.Promotion{Kind: report.PromotionReplica}
	ctx.byAddr = map[string]Facts{p: prim}
	excluded := ctx
	excluded.promotable = report.PromotableNo
	runRule(t, la214, []ruleCase{
		{"an older release that never synced", rep("redis-7.0.15", never), ctx, []string{
			"replica 10.0.0.2:6379 (Redis 7.0.15) is not in sync with its primary 10.0.0.1:6379 (INFO replication: master_link_status:down, never up (master_link_down_since_seconds -1)); " +
				"it runs Redis 7.0.15, older than its primary's Redis 8.6.3: an older release may be unable to load a newer primary's snapshot (RDB) format, and then never syncs; " +
				"a replica can be promoted (REPLICAOF NO ONE or a failover tool): promoted, it holds none of the locks written since"}},
		{"a link down for a while, mid-sync", rep("redis-8.6.3", replicaLink{status: "down", downSince: 12, syncing: true}), ctx, []string{
			"replica 10.0.0.2:6379 (Redis 8.6.3) is not in sync with its primary 10.0.0.1:6379 (INFO replication: master_link_status:down, down for 12s, a full sync in progress); " +
				"a replica can be promoted (REPLICAOF NO ONE or a failover tool): promoted, it holds none of the locks written since"}},
		{"link up", rep("redis-7.0.15", replicaLink{status: "up", downSince: -1}), ctx, nil},
		{"link not read", func() Facts { f := rep("redis-7.0.15", never); f.seen.link = nil; return f }(), ctx, nil},
		{"never promoted", rep("redis-7.0.15", never), excluded, nil},
		{"a primary", prim, ctx, nil},
	})
}

// TestNodeFindingsScope: Evaluate applies LA208 to every node and the
// other rules only to the data nodes that answered, with each finding's
// catalog title in front.
func TestNodeFindingsScope(t *testing.T) {
	sentinel := Facts{Addr: "10.0.0.9:26379", Role: RoleSentinel, Errors: []FactError{{Fact: FactSentinel, Command: "SENTINEL MASTERS", Reason: "NOPERM"}}, Config: map[string]string{"appendonly": "no"}}
	gone := unreachable("10.0.0.4:6379")
	gone.Version = ver(t, "redis-7.0.15") // what a hint could say; the rules must not judge it
	fs := Evaluate([]Facts{sentinel, gone}, EvalOptions{Topology: Sentinel, Relied: DefaultUses}).Findings
	if got := ruleIDs(fs); !slices.Equal(got, []string{"10.0.0.4:6379 LA208", "10.0.0.9:26379 LA208"}) {
		t.Errorf("findings %v, want LA208 only", got)
	}
	for _, f := range fs {
		if !strings.HasPrefix(f.Message, rules.MustGet("LA208").Title+": ") {
			t.Errorf("message without the catalog title: %q", f.Message)
		}
	}
}
