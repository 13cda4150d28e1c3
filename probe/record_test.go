package probe

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/servertest"
)

var record = flag.Bool("record", false, "record real servers' replies into testdata/replies (needs .ci/install-servers)")

// TestRecordReplies writes, for every installed server line, the raw RESP2
// and RESP3 replies to every command the probe sends, from real servers in
// every role the probe meets. The parser tests and fuzz seeds read them.
//
//	go test ./probe -run TestRecordReplies -record
func TestRecordReplies(t *testing.T) {
	if !*record {
		t.Skip("run with -record to re-record replies from real servers")
	}
	servertest.Require(t)
	for _, line := range servertest.All {
		t.Run(line, func(t *testing.T) { recordLine(t, line) })
	}
}

func recordLine(t *testing.T, line string) {
	in, err := servertest.Lookup(line)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("testdata", "replies", in.Flavor+"-"+in.Version)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	cfg := servertest.Config{Version: line}
	rec := func(s *servertest.Server, user, name string, args ...string) {
		t.Helper()
		for _, proto := range []string{"2", "3"} {
			c, err := resp.Dial(s.Addr, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			hello := []string{"HELLO", proto}
			if user != "" {
				hello = append(hello, "AUTH", user, "recorded-pw")
			}
			if v, err := c.Do(hello...); err != nil || v.Kind == resp.Err {
				t.Fatalf("%s: HELLO %s: %v %v", s.Addr, proto, v, err)
			}
			raw, err := c.DoRaw(args...)
			c.Close()
			if err != nil {
				t.Fatalf("%s: %v: %v", s.Addr, args, err)
			}
			path := filepath.Join(dir, "resp"+proto, name+".resp")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	// A standalone node: every data-node command.
	mc := cfg
	mc.ModuleCommand = true
	s := servertest.Start(t, mc)
	rec(s, "", "info-server", "INFO", "server")
	rec(s, "", "info-scriptingengines", "INFO", "scriptingengines")
	rec(s, "", "info-replication-standalone", "INFO", "replication")
	rec(s, "", "role-standalone", "ROLE")
	rec(s, "", "command-info", commandInfo...)
	rec(s, "", "command-docs-set", "COMMAND", "DOCS", "SET")
	rec(s, "", "config-get", append([]string{"CONFIG", "GET"}, configParams...)...)
	rec(s, "", "time", "TIME")
	rec(s, "", "cluster-disabled", "CLUSTER", "SHARDS")
	s.AddUser(t, "nodocs", "recorded-pw", "-@all +info +ping")
	rec(s, "nodocs", "command-docs-noperm", "COMMAND", "DOCS", "SET")
	if line == servertest.Valkey91 {
		s.UnloadLua(t)
		rec(s, "", "info-scriptingengines-nolua", "INFO", "scriptingengines")
	}

	// CONFIG and EVAL renamed away, as managed services do.
	rn := cfg
	rn.Args = []string{"--rename-command", "CONFIG", "", "--rename-command", "EVAL", ""}
	r := servertest.Start(t, rn)
	rec(r, "", "config-renamed", append([]string{"CONFIG", "GET"}, configParams...)...)
	rec(r, "", "command-info-eval-renamed", commandInfo...)

	// Replication with a hidden replica, watched by a Sentinel.
	hidden := cfg
	hidden.Args = []string{"--replica-announced", "no", "--replica-priority", "0"}
	n := servertest.StartReplication(t, servertest.Node{Config: cfg}, servertest.Node{Config: cfg, Of: 0}, servertest.Node{Config: hidden, Of: 0})
	rec(n[0], "", "info-replication-primary", "INFO", "replication")
	rec(n[0], "", "role-primary", "ROLE")
	rec(n[1], "", "info-replication-replica", "INFO", "replication")
	rec(n[1], "", "role-replica", "ROLE")
	rec(n[2], "", "info-replication-hidden", "INFO", "replication")
	sen := servertest.StartSentinels(t, n[0], "mymaster", 2, 1, cfg)
	rec(sen[0], "", "sentinel-info-server", "INFO", "server")
	rec(sen[0], "", "sentinel-role", "ROLE")
	rec(sen[0], "", "sentinel-masters", "SENTINEL", "MASTERS")
	rec(sen[0], "", "sentinel-replicas", "SENTINEL", "REPLICAS", "mymaster")
	rec(sen[0], "", "sentinel-sentinels", "SENTINEL", "SENTINELS", "mymaster")

	// A cluster: two shards, one replica with cluster-replica-no-failover.
	nf := cfg
	nf.Args = []string{"--cluster-replica-no-failover", "yes"}
	c := servertest.StartCluster(t, servertest.Shard{Primary: cfg, Replicas: []servertest.Config{nf}}, servertest.Shard{Primary: cfg, Replicas: []servertest.Config{cfg}})
	rec(c.Nodes[0], "", "cluster-info-server", "INFO", "server")
	rec(c.Nodes[0], "", "cluster-shards", "CLUSTER", "SHARDS")
	rec(c.Nodes[0], "", "cluster-nodes", "CLUSTER", "NODES")
	rec(c.Nodes[1], "", "cluster-config-get-nofailover", append([]string{"CONFIG", "GET"}, configParams...)...)
	rec(c.Nodes[1], "", "cluster-info-replication-replica", "INFO", "replication")
}
