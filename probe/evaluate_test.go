package probe

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

func ver(t *testing.T, s string) rules.Version {
	t.Helper()
	fl, num, _ := strings.Cut(s, "-")
	v, err := rules.ParseVersion(rules.Flavor(fl), num)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// probed builds the facts of a node that answered everything, with the
// replies a default server of its version gives, as the collector keeps
// them.
func probed(t *testing.T, addr, role, version string) Facts {
	t.Helper()
	f := newFacts(addr)
	f.Role, f.Version = role, ver(t, version)
	f.ReplicaPriority, f.NoFailover = 100, report.No
	f.Config = map[string]string{"appendonly": "yes", "appendfsync": "always", "maxmemory": "0",
		"maxmemory-policy": "noeviction", "min-replicas-to-write": "1", "replica-priority": "100",
		"cluster-replica-no-failover": "no"}
	f.Replicas = 0
	f.seen = observedOf(f.Version)
	if role == RoleReplica {
		f.seen.link = &replicaLink{status: "up", downSince: -1}
	}
	return f
}

// observedOf is what a default server of release v answers: COMMAND INFO
// and COMMAND DOCS SET by the capability table, EVAL present, and INFO
// scriptingengines with Lua loaded from 9.1 (absent before).
func observedOf(v rules.Version) observed {
	o := observed{
		commands: map[string]bool{"delifeq": rules.Supports(v, rules.DELIFEQ), "delex": rules.Supports(v, rules.DELEX), "eval": true},
		docsRead: true, setTokens: []string{"NX", "XX"}, scripting: &scripting{},
	}
	if rules.Supports(v, rules.SetIFEQ) {
		o.setTokens = append(o.setTokens, "IFEQ")
	}
	if rules.Supports(v, rules.LuaOptional) {
		o.scripting = &scripting{present: true, engines: 1, names: []string{"LUA"}}
	}
	return o
}

// noLua is a node whose Lua engine is unloaded (engines_count:0).
func noLua(f Facts) Facts {
	f.seen.scripting = &scripting{present: true}
	return f
}

func replicaOf(f Facts, primary string) Facts {
	f.Primary = primary
	return f
}

func unreachable(addr string) Facts {
	f := newFacts(addr)
	f.Errors = []FactError{{Fact: FactConnect, Reason: "dial tcp " + addr + ": connect: connection refused"}}
	return f
}

// unknown is the word of an unknown verdict.
var unknown = report.Unknown.String()

// verdictOf is what lockaudit probe makes of the facts: Evaluate, and the
// verdict for the commands relied on (opt.Relied, else DefaultUses).
func verdictOf(nodes []Facts, opt EvalOptions) (*report.Verdict, []report.Finding) {
	if opt.Relied == nil {
		opt.Relied = DefaultUses
	}
	var uses []report.Use
	for _, c := range opt.Relied {
		uses = append(uses, report.Use{Command: c})
	}
	ev := Evaluate(nodes, opt)
	return ev.Run(opt.Topology, uses, false).Verdict, ev.Findings
}

// words are a verdict's three words.
func words(v *report.Verdict) [3]string {
	return [3]string{v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word(), v.Of(rules.LuaScripts).Word()}
}

// ruleIDs lists "node rule" pairs, sorted.
func ruleIDs(fs []report.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Node+" "+string(f.Rule))
	}
	slices.Sort(out)
	return out
}

func TestEvaluate(t *testing.T) {
	const p, r1, r2 = "10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379"
	tests := []struct {
		name     string
		nodes    func() []Facts
		opt      EvalOptions
		release  string
		extend   string
		lua      string
		findings []string // "node rule", sorted
		reasons  []string // substrings that must appear in the reasons
	}{
		{
			name: "all 9.1 is safe",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p)}
			},
			opt:     EvalOptions{Topology: Replication},
			release: report.Safe, extend: report.Safe, lua: report.Available,
			reasons: []string{"native_release: safe — every node that can become primary (2) has DELIFEQ"},
		},
		{
			name: "9.1 primary with an 8.1 replica: release unsafe, extend safe",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-8.1.1"), p)}
			},
			opt:     EvalOptions{Topology: Replication},
			release: report.Unsafe, extend: report.Safe, lua: report.Available,
			findings: []string{r1 + " LA201"},
			reasons:  []string{"native_release: unsafe — replica 10.0.0.2:6379 (Valkey 8.1.1, promotable) has no DELIFEQ"},
		},
		{
			name: "an 8.0 replica: release and extend unsafe",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-8.0.1"), p)}
			},
			opt:     EvalOptions{Topology: Replication},
			release: report.Unsafe, extend: report.Unsafe, lua: report.Available,
			findings: []string{r1 + " LA201", r1 + " LA202"},
			reasons:  []string{"native_extend: unsafe — replica 10.0.0.2:6379 (Valkey 8.0.1, promotable) has no SET IFEQ"},
		},
		{
			name: "Sentinel never promotes an old replica at priority 0: safe",
			nodes: func() []Facts {
				old := replicaOf(probed(t, r1, RoleReplica, "valkey-8.0.1"), p)
				old.ReplicaPriority = 0
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), old, replicaOf(probed(t, r2, RoleReplica, "valkey-9.1.2"), p)}
			},
			opt:     EvalOptions{Topology: Sentinel},
			release: report.Safe, extend: report.Safe, lua: report.Available,
			reasons: []string{"(2) has DELIFEQ"},
		},
		{
			name: "priority 0 counts only under Sentinel",
			nodes: func() []Facts {
				old := replicaOf(probed(t, r1, RoleReplica, "valkey-8.0.1"), p)
				old.ReplicaPriority = 0
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), old}
			},
			opt:     EvalOptions{Topology: Replication},
			release: report.Unsafe, extend: report.Unsafe, lua: report.Available,
			findings: []string{r1 + " LA201", r1 + " LA202"},
		},
		{
			name: "an old replica whose priority is unknown under Sentinel: unknown, not unsafe",
			nodes: func() []Facts {
				old := replicaOf(probed(t, r1, RoleReplica, "valkey-8.1.1"), p)
				old.ReplicaPriority = -1
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), old}
			},
			opt:     EvalOptions{Topology: Sentinel},
			release: unknown, extend: report.Safe, lua: report.Available,
			reasons: []string{"native_release: unknown — replica 10.0.0.2:6379 (Valkey 8.1.1) has no DELIFEQ and its replica-priority could not be read"},
		},
		{
			name: "cluster nofailover replica is a note, not unsafe",
			nodes: func() []Facts {
				old := replicaOf(probed(t, r1, RoleReplica, "valkey-8.1.1"), p)
				old.NoFailover = report.Yes
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), old}
			},
			opt:     EvalOptions{Topology: Cluster},
			release: report.Safe, extend: report.Safe, lua: report.Available,
			reasons: []string{"native_release: note — replica 10.0.0.2:6379 (Valkey 8.1.1) has no DELIFEQ; cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it"},
		},
		{
			name: "cluster replica without nofailover is promotable",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-8.1.1"), p)}
			},
			opt:     EvalOptions{Topology: Cluster},
			release: report.Unsafe, extend: report.Safe, lua: report.Available,
			findings: []string{r1 + " LA201"},
		},
		{
			name: "an unreachable node makes every verdict unknown",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), unreachable(r1)}
			},
			opt:     EvalOptions{Topology: Replication},
			release: unknown, extend: unknown, lua: unknown,
			findings: []string{r1 + " LA208"},
			reasons:  []string{"native_release: unknown — 10.0.0.2:6379: DELIFEQ unknown (not reachable: dial tcp"},
		},
		{
			name: "unsafe beats unknown",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-8.1.1"), p), unreachable(r2)}
			},
			opt:     EvalOptions{Topology: Replication},
			release: report.Unsafe, extend: unknown, lua: unknown,
			findings: []string{r1 + " LA201", r2 + " LA208"},
		},
		{
			name: "CONFIG blocked: LA208, but the release verdict stays decidable",
			nodes: func() []Facts {
				f := probed(t, p, RolePrimary, "valkey-9.1.2")
				f.Config = map[string]string{}
				f.Errors = []FactError{{Fact: FactConfig, Command: "CONFIG GET", Reason: "ERR unknown command 'CONFIG'"}}
				return []Facts{f}
			},
			opt:     EvalOptions{Topology: Standalone},
			release: report.Safe, extend: report.Safe, lua: report.Available,
			findings: []string{p + " LA208"},
		},
		{
			name: "Lua missing matters only with -uses lua",
			nodes: func() []Facts {
				return []Facts{noLua(probed(t, p, RolePrimary, "valkey-9.1.2"))}
			},
			opt:     EvalOptions{Topology: Standalone},
			release: report.Safe, extend: report.Safe, lua: report.Missing,
		},
		{
			name: "-uses lua and a node without Lua: LA203",
			nodes: func() []Facts {
				return []Facts{noLua(probed(t, p, RolePrimary, "valkey-9.1.2"))}
			},
			opt:     EvalOptions{Topology: Standalone, Relied: []rules.Command{rules.UseLua}},
			release: report.Safe, extend: report.Safe, lua: report.Missing,
			findings: []string{p + " LA203"},
			reasons:  []string{"lua: missing — primary 10.0.0.1:6379 (Valkey 9.1.2, promotable) has no Lua (INFO scriptingengines: engines_count:0, no Lua engine)"},
		},
		{
			name: "-uses delex judges DELEX, which 9.1 lacks",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2")}
			},
			opt:     EvalOptions{Topology: Standalone, Relied: []rules.Command{rules.UseDELEX}},
			release: report.Unsafe, extend: report.Safe, lua: report.Available,
			findings: []string{p + " LA201"},
			reasons:  []string{"has no DELEX"},
		},
		{
			name: "LA201/LA202 only for what the code uses",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-8.0.1")}
			},
			opt:     EvalOptions{Topology: Standalone, Relied: []rules.Command{rules.UseLua}},
			release: report.Unsafe, extend: report.Unsafe, lua: report.Available,
		},
		{
			name: "Redis node: LA210, and no DELIFEQ",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "redis-7.0.15")}
			},
			opt:     EvalOptions{Topology: Standalone},
			release: report.Unsafe, extend: report.Unsafe, lua: report.Available,
			findings: []string{p + " LA201", p + " LA202", p + " LA210"},
		},
		{
			name: "hidden promotable replica: LA209",
			nodes: func() []Facts {
				h := replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p)
				h.Hidden = true
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), h}
			},
			opt:     EvalOptions{Topology: Sentinel},
			release: report.Safe, extend: report.Safe, lua: report.Available,
			findings: []string{r1 + " LA209"},
		},
		{
			name: "hidden replica at priority 0 is fine",
			nodes: func() []Facts {
				h := replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p)
				h.Hidden, h.ReplicaPriority = true, 0
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), h}
			},
			opt:     EvalOptions{Topology: Sentinel},
			release: report.Safe, extend: report.Safe, lua: report.Available,
		},
		{
			name: "config checks LA204, LA205, LA206",
			nodes: func() []Facts {
				f := probed(t, p, RolePrimary, "valkey-9.1.2")
				f.Replicas = 2
				f.Config["min-replicas-to-write"] = "0"
				f.Config["appendonly"] = "no"
				f.Config["maxmemory"] = "2147483648"
				f.Config["maxmemory-policy"] = "volatile-lru"
				g := replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p)
				g.Config["appendfsync"] = "everysec"
				return []Facts{f, g}
			},
			opt:     EvalOptions{Topology: Replication},
			release: report.Safe, extend: report.Safe, lua: report.Available,
			findings: []string{p + " LA204", p + " LA205", p + " LA206", r1 + " LA205"},
		},
		{
			name:    "no data node at all is unknown",
			nodes:   func() []Facts { return []Facts{{Addr: "s:26379", Role: RoleSentinel}} },
			opt:     EvalOptions{Topology: Sentinel},
			release: unknown, extend: unknown, lua: unknown,
			reasons: []string{"no data node was found"},
		},
		{
			name: "declared fleet goes through the same logic",
			nodes: func() []Facts {
				return []Facts{Declared(p, RolePrimary, ver(t, "valkey-9.0.0")), replicaOf(Declared(r1, RoleReplica, ver(t, "valkey-8.1.1")), p)}
			},
			opt:     EvalOptions{Topology: DeclaredTop},
			release: report.Unsafe, extend: report.Safe, lua: report.Available,
			findings: []string{r1 + " LA201"},
			reasons:  []string{"has no DELIFEQ (declared valkey-8.1.1)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, fs := verdictOf(tt.nodes(), tt.opt)
			if got := words(v); got != [3]string{tt.release, tt.extend, tt.lua} {
				t.Errorf("verdict = release %s, extend %s, lua %s; want %s, %s, %s\nreasons:\n  %s",
					got[0], got[1], got[2], tt.release, tt.extend, tt.lua, strings.Join(v.Strings(), "\n  "))
			}
			// Only the listed findings may appear (probed() sets a config
			// that triggers none of LA204-LA206).
			got, want := ruleIDs(fs), tt.findings
			if !slices.Equal(got, want) {
				t.Errorf("findings = %q, want %q", got, want)
				for _, f := range fs {
					t.Logf("  %s %s %s", f.Node, f.Rule, f.Message)
				}
			}
			all := strings.Join(v.Strings(), "\n")
			for _, r := range tt.reasons {
				if !strings.Contains(all, r) {
					t.Errorf("reasons lack %q:\n%s", r, all)
				}
			}
			for _, f := range fs {
				if f.Severity != rules.MustGet(f.Rule).Severity || !strings.HasPrefix(f.Message, rules.MustGet(f.Rule).Title+": ") {
					t.Errorf("%s finding does not carry the catalog's severity and title: %+v", f.Rule, f)
				}
			}
		})
	}
}

func TestSkew(t *testing.T) {
	const p, r = "10.0.0.1:6379", "10.0.0.2:6379"
	mk := func(offset time.Duration, prio int) []Facts {
		pf := probed(t, p, RolePrimary, "valkey-9.1.2")
		pf.Clock = &Clock{Offset: 5 * time.Millisecond, RTT: time.Millisecond}
		rf := replicaOf(probed(t, r, RoleReplica, "valkey-9.1.2"), p)
		rf.Clock = &Clock{Offset: 5*time.Millisecond + offset, RTT: time.Millisecond}
		rf.ReplicaPriority = prio
		return []Facts{pf, rf}
	}
	count := func(fs []report.Finding) int {
		n := 0
		for _, f := range fs {
			if f.Rule == "LA207" {
				n++
			}
		}
		return n
	}
	for _, tt := range []struct {
		offset    time.Duration
		prio      int
		topology  string
		threshold time.Duration
		want      int
	}{
		{80 * time.Millisecond, 100, Replication, 0, 1},
		{-80 * time.Millisecond, 100, Replication, 0, 1},
		{30 * time.Millisecond, 100, Replication, 0, 0},
		{30 * time.Millisecond, 100, Replication, 20 * time.Millisecond, 1},
		{800 * time.Millisecond, 0, Sentinel, 0, 0}, // never promoted
	} {
		fs := Evaluate(mk(tt.offset, tt.prio), EvalOptions{Topology: tt.topology, Skew: tt.threshold}).Findings
		if got := count(fs); got != tt.want {
			t.Errorf("offset %v, priority %d, %s, threshold %v: %d LA207 findings, want %d", tt.offset, tt.prio, tt.topology, tt.threshold, got, tt.want)
		}
	}
	// The message says who is ahead of whom.
	fs := Evaluate(mk(800*time.Millisecond, 100), EvalOptions{Topology: Replication}).Findings
	for _, f := range fs {
		if f.Rule == "LA207" && !strings.Contains(f.Message, "clock 800ms ahead of primary 10.0.0.1:6379") {
			t.Errorf("LA207 message = %q", f.Message)
		}
	}
}

func TestPromotable(t *testing.T) {
	rep := func(prio int, nofail report.Answer) Facts {
		f := probed(t, "r:1", RoleReplica, "valkey-9.1.2")
		f.ReplicaPriority, f.NoFailover = prio, nofail
		return f
	}
	for _, tt := range []struct {
		f        Facts
		topology string
		want     report.Promotable
	}{
		{probed(t, "p:1", RolePrimary, "valkey-8.0.1"), Sentinel, report.PromotableYes},
		{rep(100, report.No), Replication, report.PromotableYes},
		{rep(0, report.No), Replication, report.PromotableYes},
		{rep(0, report.No), Sentinel, report.PromotableNo},
		{rep(1, report.No), Sentinel, report.PromotableYes},
		{rep(-1, report.No), Sentinel, report.PromotableUnknown},
		{rep(100, report.Yes), Cluster, report.PromotableManual},
		{rep(100, report.No), Cluster, report.PromotableYes},
		{rep(100, report.Unknown), Cluster, report.PromotableUnknown},
		{unreachable("x:1"), Replication, report.PromotableUnknown},
		{Facts{Addr: "s:1", Role: RoleSentinel}, Sentinel, report.PromotableNo},
	} {
		if got, why := Promotable(tt.f, tt.topology); got != tt.want {
			t.Errorf("Promotable(%s prio %d nofailover %s, %s) = %s (%s), want %s", tt.f.Role, tt.f.ReplicaPriority, tt.f.NoFailover, tt.topology, got, why.Words(), tt.want)
		}
	}
}

func TestDeclared(t *testing.T) {
	for _, tt := range []struct {
		v                        string
		delifeq, delex, set_ifeq report.Answer
	}{
		{"valkey-8.0.1", report.No, report.No, report.No},
		{"valkey-8.1.1", report.No, report.No, report.Yes},
		{"valkey-9.0.0", report.Yes, report.No, report.Yes},
		{"valkey-9.2.0", report.Yes, report.Yes, report.Yes},
		{"redis-8.4.0", report.No, report.Yes, report.Yes},
	} {
		f := Declared("a:1", RoleReplica, ver(t, tt.v))
		n := Evaluate([]Facts{f}, EvalOptions{Topology: DeclaredTop}).Nodes[0]
		if n.DELIFEQ != tt.delifeq || n.DELEX != tt.delex || n.SetIFEQ != tt.set_ifeq || n.Lua != report.Yes {
			t.Errorf("Declared(%s) = delifeq %s delex %s set_ifeq %s lua %s, want %s %s %s yes", tt.v, n.DELIFEQ, n.DELEX, n.SetIFEQ, n.Lua, tt.delifeq, tt.delex, tt.set_ifeq)
		}
		if !n.Declared || n.Promotable != report.PromotableYes || n.Server != string(f.Version.Flavor) {
			t.Errorf("Node(Declared(%s)) = %+v", tt.v, n)
		}
	}
}
