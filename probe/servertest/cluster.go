package servertest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

// Shard is one cluster shard: a primary and its replicas. A replica with
// "--cluster-replica-no-failover", "yes" in its Args gets the nofailover flag.
type Shard struct {
	Primary  Config
	Replicas []Config
}

// Cluster is a running cluster.
type Cluster struct {
	Nodes  []*Server   // every node, shard by shard, primary first
	Shards [][]*Server // Shards[i][0] is shard i's primary
}

// StartCluster starts a cluster (slots split evenly between the primaries),
// and waits until every node knows every other, every replica replicates its
// primary, every node reports cluster_state:ok, and every node's CLUSTER
// NODES shows each replica's primary and nofailover flag.
func StartCluster(t testing.TB, shards ...Shard) *Cluster {
	t.Helper()
	if len(shards) == 0 {
		t.Fatal("servertest: StartCluster needs a shard")
	}
	var cfgs []Config
	var shardOf []int
	for i, sh := range shards {
		cfgs = append(cfgs, sh.Primary)
		shardOf = append(shardOf, i)
		for _, r := range sh.Replicas {
			cfgs = append(cfgs, r)
			shardOf = append(shardOf, i)
		}
	}
	nodes := startAll(t, cfgs, func(int) []string {
		return []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-port", "{busport}", "--cluster-node-timeout", "15000"}
	})
	c := &Cluster{Nodes: nodes, Shards: make([][]*Server, len(shards))}
	for i, s := range nodes {
		c.Shards[shardOf[i]] = append(c.Shards[shardOf[i]], s)
	}

	// Slots, then one MEET per node; gossip spreads the rest.
	const slots = 16384
	for i, sh := range c.Shards {
		lo, hi := i*slots/len(c.Shards), (i+1)*slots/len(c.Shards)-1
		sh[0].Do(t, "CLUSTER", "ADDSLOTSRANGE", strconv.Itoa(lo), strconv.Itoa(hi))
	}
	ids := map[*Server]string{}
	for _, s := range nodes {
		ids[s] = s.Do(t, "CLUSTER", "MYID")
	}
	for _, s := range nodes[1:] {
		nodes[0].Do(t, "CLUSTER", "MEET", "127.0.0.1", strconv.Itoa(s.Port), strconv.Itoa(s.BusPort))
	}
	for _, s := range nodes {
		s := s
		waitFor(t, "cluster membership of "+s.Addr, func() string {
			view := s.Do(t, "CLUSTER", "NODES")
			for _, o := range nodes {
				f := strings.Fields(lineOf(view, ids[o]))
				if len(f) < 3 || strings.Contains(f[2], "handshake") || strings.Contains(f[2], "noaddr") {
					return fmt.Sprintf("does not know %s (%s) yet", o.Addr, ids[o])
				}
			}
			return ""
		})
	}
	for _, sh := range c.Shards {
		for _, r := range sh[1:] {
			r.Do(t, "CLUSTER", "REPLICATE", ids[sh[0]])
		}
	}
	for _, sh := range c.Shards {
		for _, r := range sh[1:] {
			r.WaitReplicating(t, sh[0])
		}
	}
	// Every node's view must agree: state ok, roles, primaries, nofailover.
	for _, s := range nodes {
		s := s
		waitFor(t, "cluster view of "+s.Addr, func() string {
			if st := s.clusterInfo()["cluster_state"]; st != "ok" {
				return "cluster_state " + st
			}
			view := s.Do(t, "CLUSTER", "NODES")
			for _, sh := range c.Shards {
				for _, r := range sh[1:] {
					line := lineOf(view, ids[r])
					f := strings.Fields(line)
					if len(f) < 4 || !strings.Contains(f[2], "slave") || f[3] != ids[sh[0]] {
						return fmt.Sprintf("does not see %s as a replica of %s yet: %q", r.Addr, sh[0].Addr, line)
					}
					if want := nofailover(r.Config); want != strings.Contains(f[2], "nofailover") {
						return fmt.Sprintf("sees flags %s for %s, nofailover should be %v", f[2], r.Addr, want)
					}
				}
			}
			return ""
		})
	}
	return c
}

func nofailover(c Config) bool {
	for i := 0; i+1 < len(c.Args); i++ {
		if c.Args[i] == "--cluster-replica-no-failover" && c.Args[i+1] == "yes" {
			return true
		}
	}
	return false
}

func lineOf(view, id string) string {
	for _, line := range strings.Split(view, "\n") {
		if strings.HasPrefix(line, id+" ") {
			return line
		}
	}
	return ""
}

// clusterInfo returns CLUSTER INFO's fields (none when it fails: the wait
// goes on).
func (s *Server) clusterInfo() map[string]string {
	v, err := s.Try("CLUSTER", "INFO")
	if err != nil {
		return map[string]string{}
	}
	return resp.InfoFields(v)
}
