package servertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

// StartSentinels starts n Sentinels (server line c.Version) that monitor
// primary under name, and waits until each lists wantReplicas replicas as
// healthy (replicas with replica-announced no are not listed) and knows the
// n-1 other Sentinels. Failover is effectively off (down-after-milliseconds
// is a minute), so the topology stays as built. With c.Password the
// Sentinels require it and use it to authenticate to the primary.
func StartSentinels(t testing.TB, primary *Server, name string, n, wantReplicas int, c Config) []*Server {
	t.Helper()
	Require(t, c.Line())
	conf := fmt.Sprintf("sentinel monitor %s 127.0.0.1 %d %d\nsentinel down-after-milliseconds %s 60000\nsentinel failover-timeout %s 180000\n",
		name, primary.Port, n/2+1, name, name)
	if primary.Config.Password != "" {
		conf += fmt.Sprintf("sentinel auth-pass %s %s\n", name, primary.Config.Password)
	}
	sc := c
	sc.ModuleCommand = false
	out := make([]*Server, n)
	for i := range out {
		s, err := startServer(t, sc, []string{"--sentinel"}, conf)
		if err != nil {
			t.Fatalf("servertest: sentinel: %v", err)
		}
		out[i] = s
	}
	for _, s := range out {
		s := s
		waitFor(t, "sentinel "+s.Addr, func() string {
			reps, err := s.entries("SENTINEL", "REPLICAS", name)
			if err != nil {
				return err.Error()
			}
			healthy := 0
			for _, r := range reps {
				if !strings.Contains(r["flags"], "down") && !strings.Contains(r["flags"], "disconnected") {
					healthy++
				}
			}
			if healthy != wantReplicas {
				return fmt.Sprintf("lists %d healthy replicas of %s, want %d", healthy, name, wantReplicas)
			}
			sens, err := s.entries("SENTINEL", "SENTINELS", name)
			if err != nil {
				return err.Error()
			}
			if len(sens) != n-1 {
				return fmt.Sprintf("knows %d other sentinels, want %d", len(sens), n-1)
			}
			return ""
		})
	}
	return out
}

// entries runs a SENTINEL command that answers a list of field lists.
func (s *Server) entries(args ...string) ([]map[string]string, error) {
	v, err := s.Raw(args...)
	if err != nil {
		return nil, err
	}
	if v.Kind == resp.Err {
		return nil, fmt.Errorf("%s: %s", strings.Join(args, " "), v.Str)
	}
	var out []map[string]string
	for _, e := range v.Elems {
		m, _ := e.Fields()
		out = append(out, m)
	}
	return out, nil
}
