package servertest

import (
	"strings"
	"testing"
)

func TestStandaloneEveryVersion(t *testing.T) {
	Require(t)
	for _, line := range All {
		s := Start(t, Config{Version: line})
		info := s.Info(t, "server")
		got := info["valkey_version"]
		if strings.HasPrefix(line, "redis-") {
			got = info["redis_version"]
		}
		if got != s.Version || !strings.HasPrefix(line, "valkey-"+got[:3]) && !strings.HasPrefix(line, "redis-"+got[:3]) {
			t.Errorf("%s: INFO server reports %q, install says %q", line, got, s.Version)
		}
	}
}

func TestPasswordAndStop(t *testing.T) {
	s := Start(t, Config{Password: "pw-servertest"})
	if _, err := s.Try("PING"); err != nil {
		t.Fatal(err)
	}
	s.Stop(t)
	if _, err := s.Try("PING"); err == nil {
		t.Fatal("PING answered after Stop")
	}
}

func TestReplicationChain(t *testing.T) {
	Require(t, Valkey91, Valkey81, Valkey80)
	n := StartReplication(t,
		Node{Config: Config{Version: Valkey91}},
		Node{Config: Config{Version: Valkey81}, Of: 0},
		Node{Config: Config{Version: Valkey80}, Of: 1}, // replica of a replica
	)
	if got := n[2].Info(t, "replication")["master_port"]; got != n[1].Info(t, "server")["tcp_port"] {
		t.Errorf("sub-replica's master_port = %s, want the 8.1 replica's port", got)
	}
}

func TestSentinel(t *testing.T) {
	n := StartReplication(t, Node{}, Node{Of: 0}, Node{Config: Config{Args: []string{"--replica-announced", "no"}}, Of: 0})
	ss := StartSentinels(t, n[0], "mymaster", 2, 1, Config{})
	if got := ss[0].Do(t, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"); !strings.Contains(got, n[0].Info(t, "server")["tcp_port"]) {
		t.Errorf("sentinel's master = %s, want %s", got, n[0].Addr)
	}
}

func TestClusterMixed(t *testing.T) {
	Require(t, Valkey91, Valkey81)
	c := StartCluster(t,
		Shard{Primary: Config{}, Replicas: []Config{{Version: Valkey81, Args: []string{"--cluster-replica-no-failover", "yes"}}}},
		Shard{Primary: Config{}, Replicas: []Config{{}}},
		Shard{Primary: Config{}},
	)
	if len(c.Nodes) != 5 || len(c.Shards) != 3 {
		t.Fatalf("cluster has %d nodes in %d shards", len(c.Nodes), len(c.Shards))
	}
	view := c.Nodes[4].Do(t, "CLUSTER", "NODES")
	if strings.Count(view, "nofailover") != 1 {
		t.Errorf("CLUSTER NODES shows %d nofailover flags, want 1:\n%s", strings.Count(view, "nofailover"), view)
	}
}

func TestUnloadLua(t *testing.T) {
	s := Start(t, Config{ModuleCommand: true})
	s.UnloadLua(t)
	if _, err := s.Try("EVAL", "return 1", "0"); err == nil || !strings.Contains(err.Error(), "scripting engine") {
		t.Errorf("EVAL after UnloadLua: %v", err)
	}
}
