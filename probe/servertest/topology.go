package servertest

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Node is one server of a replication set: its Config and the index (in
// the StartReplication arguments) of the node it replicates. The first node
// is the primary; its Of is ignored.
type Node struct {
	Config
	Of int
}

// StartReplication starts a primary and replicas (replicas of replicas
// when Of points at a replica), and waits until every replication link is up
// and every primary lists its replicas. It returns the servers in argument
// order.
func StartReplication(t testing.TB, nodes ...Node) []*Server {
	t.Helper()
	if len(nodes) == 0 {
		t.Fatal("servertest: StartReplication needs at least a primary")
	}
	cfgs := make([]Config, len(nodes))
	for i, n := range nodes {
		cfgs[i] = n.Config
	}
	servers := startAll(t, cfgs, nil)
	for i := 1; i < len(nodes); i++ {
		if nodes[i].Of < 0 || nodes[i].Of >= len(nodes) || nodes[i].Of == i {
			t.Fatalf("servertest: node %d replicates node %d, which does not exist", i, nodes[i].Of)
		}
		servers[i].Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(servers[nodes[i].Of].Port))
	}
	for i := 1; i < len(nodes); i++ {
		servers[i].WaitReplicating(t, servers[nodes[i].Of])
	}
	return servers
}

// startAll starts servers concurrently (start-up is mostly waiting); extra
// gives each server's additional arguments.
func startAll(t testing.TB, cfgs []Config, extra func(i int) []string) []*Server {
	t.Helper()
	for _, c := range cfgs {
		Require(t, c.version())
	}
	out := make([]*Server, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i := range cfgs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var args []string
			if extra != nil {
				args = extra(i)
			}
			out[i], errs[i] = startServer(t, cfgs[i], args, "")
		}(i)
	}
	wg.Wait()
	var msgs []string
	for _, err := range errs {
		if err != nil {
			msgs = append(msgs, err.Error())
		}
	}
	if len(msgs) > 0 {
		t.Fatalf("servertest: %s", strings.Join(msgs, "\n"))
	}
	return out
}

// WaitReplicating waits until s replicates primary with its link up and the
// primary lists s as an online replica.
func (s *Server) WaitReplicating(t testing.TB, primary *Server) {
	t.Helper()
	waitFor(t, fmt.Sprintf("replication %s -> %s", s.Addr, primary.Addr), func() string {
		info := s.Info(t, "replication")
		if info["master_port"] != strconv.Itoa(primary.Port) || info["master_link_status"] != "up" {
			return fmt.Sprintf("replica: master_port %s, master_link_status %s", info["master_port"], info["master_link_status"])
		}
		pinfo := primary.Info(t, "replication")
		for k, v := range pinfo {
			if strings.HasPrefix(k, "slave") && strings.Contains(v, "port="+strconv.Itoa(s.Port)+",") && strings.Contains(v, "state=online") {
				return ""
			}
		}
		return "the primary does not list it as online yet"
	})
}
