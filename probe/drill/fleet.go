package drill

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/probe/drill/linkproxy"
	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/report"
)

// Master is the name the drill's Sentinels monitor the primary under.
const Master = "drill"

// Sentinel timing: a primary is down after downAfter without an answer;
// failoverTimeout bounds each failover step (and a failed election is
// retried after twice that).
const (
	downAfter       = 1000
	failoverTimeout = 15000
)

// fleet is one variant's servers: a primary, the proxy in front of it, a
// replica that replicates through the proxy, and three Sentinels that
// monitor the primary at the proxy's address.
type fleet struct {
	primary, replica *localfleet.Server
	proxy            *linkproxy.Proxy
	sentinels        []*localfleet.Server
	restarted        *localfleet.Server // the old primary restarted from its files
}

// fleetSpec says how to start a variant's fleet.
type fleetSpec struct {
	line         string
	servers      string
	primaryArgs  []string
	replicaEnv   []string // the replica's extra environment (a clock shift)
	newDir       func() (string, error)
	settle       time.Duration
	onStart      func(*localfleet.Server) // registers a process for the signal handler's cleanup
	onProxyStart func(*linkproxy.Proxy)
}

// startFleet starts the servers and waits (each wait bounded by
// spec.settle) until the replica replicates through the proxy and every
// Sentinel knows the replica and the two other Sentinels. On error every
// process it started is stopped.
func startFleet(ctx context.Context, spec fleetSpec) (f *fleet, err error) {
	f = &fleet{}
	defer func() {
		if err != nil {
			f.stop()
			f = nil
		}
	}()
	cfg := localfleet.Config{Version: spec.line, Servers: spec.servers}
	start := func(c localfleet.Config, extra []string, conf string) (*localfleet.Server, error) {
		s, err := localfleet.Start(ctx, spec.newDir, c, extra, conf)
		if err == nil && spec.onStart != nil {
			spec.onStart(s)
		}
		return s, err
	}
	pc := cfg
	pc.Args = spec.primaryArgs
	if f.primary, err = start(pc, nil, ""); err != nil {
		return f, err
	}
	if f.proxy, err = linkproxy.Start(f.primary.Addr); err != nil {
		return f, err
	}
	if spec.onProxyStart != nil {
		spec.onProxyStart(f.proxy)
	}
	rc := cfg
	rc.Env = spec.replicaEnv
	if f.replica, err = start(rc, nil, ""); err != nil {
		return f, err
	}
	_, proxyPort, _ := net.SplitHostPort(f.proxy.Addr)
	if _, err := f.replica.Try("REPLICAOF", "127.0.0.1", proxyPort); err != nil {
		return f, fmt.Errorf("REPLICAOF on %s: %v", f.replica.Addr, err)
	}
	if err := localfleet.Poll(ctx, spec.settle, "replication through the proxy", func() string {
		info, err := f.replica.Info("replication")
		if err != nil {
			return err.Error()
		}
		if info["master_port"] != proxyPort || info["master_link_status"] != "up" {
			return "replica: master_port " + info["master_port"] + ", master_link_status " + info["master_link_status"]
		}
		if f.proxy.Replicas() != 1 {
			return "the proxy has no replication link yet"
		}
		return ""
	}); err != nil {
		return f, err
	}

	conf := fmt.Sprintf("sentinel monitor %s 127.0.0.1 %s 2\nsentinel down-after-milliseconds %s %d\nsentinel failover-timeout %s %d\n",
		Master, proxyPort, Master, downAfter, Master, failoverTimeout)
	sc := cfg
	var mu sync.Mutex
	var wg sync.WaitGroup
	var errs []error
	f.sentinels = make([]*localfleet.Server, 3)
	for i := range f.sentinels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := start(sc, []string{"--sentinel"}, conf)
			mu.Lock()
			defer mu.Unlock()
			f.sentinels[i] = s
			errs = append(errs, err)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return f, err
	}
	for _, s := range f.sentinels {
		if err := localfleet.Poll(ctx, spec.settle, "Sentinel "+s.Addr, func() string {
			return sentinelReady(s, len(f.sentinels)-1)
		}); err != nil {
			return f, err
		}
	}
	return f, nil
}

// sentinelReady is "" when s lists one healthy replica and knows others
// other Sentinels, or what it lacks.
func sentinelReady(s *localfleet.Server, others int) string {
	reps, err := entries(s, "SENTINEL", "REPLICAS", Master)
	if err != nil {
		return err.Error()
	}
	healthy := 0
	for _, r := range reps {
		if !strings.Contains(r["flags"], "down") && !strings.Contains(r["flags"], "disconnected") {
			healthy++
		}
	}
	if healthy != 1 {
		return fmt.Sprintf("lists %d healthy replicas, want 1", healthy)
	}
	sens, err := entries(s, "SENTINEL", "SENTINELS", Master)
	if err != nil {
		return err.Error()
	}
	if len(sens) != others {
		return fmt.Sprintf("knows %d other Sentinels, want %d", len(sens), others)
	}
	return ""
}

// entries runs a SENTINEL command that answers a list of field lists.
func entries(s *localfleet.Server, args ...string) ([]map[string]string, error) {
	v, err := s.Raw(args...)
	if err != nil {
		return nil, err
	}
	if v.Str != "" && len(v.Elems) == 0 {
		return nil, errors.New(v.Str)
	}
	var out []map[string]string
	for _, e := range v.Elems {
		m, _ := e.Fields()
		out = append(out, m)
	}
	return out, nil
}

// nodes lists the fleet's processes for the record.
func (f *fleet) nodes(clockOffsetMS int64) []report.DrillNode {
	out := []report.DrillNode{
		{Addr: f.primary.Addr, Role: report.RolePrimary},
		{Addr: f.proxy.Addr, Role: "proxy"},
		{Addr: f.replica.Addr, Role: report.RoleReplica, ClockOffsetMS: clockOffsetMS},
	}
	for _, s := range f.sentinels {
		out = append(out, report.DrillNode{Addr: s.Addr, Role: report.RoleSentinel})
	}
	return out
}

// stop kills every server and closes the proxy; safe to call twice and
// on a fleet started halfway.
func (f *fleet) stop() {
	if f == nil {
		return
	}
	all := append([]*localfleet.Server{f.primary, f.replica, f.restarted}, f.sentinels...)
	localfleet.KillAll(all)
	if f.proxy != nil {
		f.proxy.Close()
	}
}

// keepDir returns a newDir function that hands out dir once (to restart
// a server on its own files), then fails.
func keepDir(dir string) func() (string, error) {
	used := false
	return func() (string, error) {
		if used {
			return "", errors.New("the old primary's folder was already used")
		}
		used = true
		if _, err := os.Stat(dir); err != nil {
			return "", err
		}
		return dir, nil
	}
}
