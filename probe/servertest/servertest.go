// Package servertest starts real Valkey and Redis servers for tests, the way
// net/http/httptest starts HTTP servers: standalone nodes, primary/replica
// chains, Sentinels and clusters on free loopback ports, with mixed versions.
// Starting, waiting and killing is probe/localfleet's (which `lockaudit
// demo` shares); this package ties it to a testing.TB.
//
// The servers come from Debian's packages, installed by .ci/install-servers
// into $LOCKAUDIT_SERVERS (default ${XDG_CACHE_HOME:-~/.cache}/lockaudit/servers).
// When they are not installed a test is skipped, or fails when
// LOCKAUDIT_REQUIRE_SERVERS=1 (CI sets it), with a message naming the script.
//
// Every start waits, with a bound, until the topology has settled, and every
// server is killed (its whole process group) when the test ends, pass or
// fail. Server logs go to t.TempDir(); a failing test prints their tails.
//
// Typical use:
//
//	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
//	nodes := servertest.StartReplication(t,
//		servertest.Node{Config: servertest.Config{Version: servertest.Valkey91}},
//		servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}})
//	// nodes[0].Addr is the primary, nodes[1].Addr its replica
package servertest

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/probe/netguard"
)

// Installed server lines (the folder names .ci/install-servers creates).
const (
	Valkey91 = localfleet.Valkey91
	Valkey81 = localfleet.Valkey81
	Valkey80 = localfleet.Valkey80
	Redis70  = localfleet.Redis70
	Redis86  = localfleet.Redis86
)

// All lists every server line the install script provides.
var All = localfleet.All

// ProbeACL is the read-only probe user's ACL for data nodes (docs/reliability.md, "The probe user"):
// pass it to Server.AddUser. SentinelProbeACL is the one for Sentinels.
const (
	ProbeACL         = "resetkeys resetchannels -@all +ping +info +command|info +command|docs +command|count +config|get +role +cluster|shards +cluster|nodes +cluster|info +cluster|myid +client|setname +time"
	SentinelProbeACL = "-@all +ping +info +role +sentinel|masters +sentinel|replicas +sentinel|sentinels +sentinel|get-master-addr-by-name"
)

// Loopback returns the context to run a probe with in a test: every
// connection the probe opens must go to a loopback address (127.0.0.0/8,
// ::1). Any other address is refused and fails the test, so no test
// traffic leaves the machine, whatever a server announces.
func Loopback(t testing.TB) context.Context {
	return netguard.With(context.Background(), netguard.LoopbackOnly(func(err error) {
		t.Errorf("servertest: the probe tried to leave the machine: %v", err)
	}))
}

// SettleTimeout bounds every wait for a topology to settle.
var SettleTimeout = 60 * time.Second

// Dir returns the folder the servers are installed in.
func Dir() string { return localfleet.Dir() }

// Install is one installed server line, as described by its server.env.
type Install = localfleet.Install

// Lookup reads an installed server line; the error says how to install it.
func Lookup(name string) (Install, error) { return localfleet.Lookup(name) }

// Require skips the test unless every named server line is installed
// (all of them when none is named). With LOCKAUDIT_REQUIRE_SERVERS=1 a
// missing server fails the test instead.
func Require(t testing.TB, names ...string) {
	t.Helper()
	if len(names) == 0 {
		names = All
	}
	for _, n := range names {
		if _, err := Lookup(n); err != nil {
			if os.Getenv("LOCKAUDIT_REQUIRE_SERVERS") == "1" {
				t.Fatalf("servertest: %v (LOCKAUDIT_REQUIRE_SERVERS=1)", err)
			}
			t.Skipf("servertest: %v", err)
		}
	}
}

// Config describes one server to start.
type Config = localfleet.Config

// Server is one running server process, killed when the test ends.
type Server struct {
	*localfleet.Server
}

// Start starts one standalone server and waits until its own process
// answers on its port (see localfleet.Start).
func Start(t testing.TB, c Config) *Server {
	t.Helper()
	Require(t, c.Line())
	s, err := startServer(t, c, nil, "")
	if err != nil {
		t.Fatalf("servertest: %v", err)
	}
	return s
}

// tempDir hands localfleet the test's temporary folders.
func tempDir(t testing.TB) func() (string, error) {
	return func() (string, error) { return t.TempDir(), nil }
}

// startServer runs a server (see localfleet.Start) and ties it to the test.
// It only returns errors, so servers can be started from several goroutines.
func startServer(t testing.TB, c Config, extra []string, conf string) (*Server, error) {
	s, err := localfleet.Start(context.Background(), tempDir(t), c, extra, conf)
	if err != nil {
		return nil, err
	}
	return adopt(t, s), nil
}

// adopt wraps a started server and kills it when the test ends, printing its
// log tail when the test failed.
func adopt(t testing.TB, ls *localfleet.Server) *Server {
	s := &Server{ls}
	t.Cleanup(func() {
		s.Kill()
		if t.Failed() {
			t.Logf("servertest: %s %s (%s) log tail:\n%s", s.Line, s.Addr, s.Dir, s.LogTail(15))
		}
	})
	return s
}

// Stop kills the server now (to test a node that is down); cleanup is safe
// to run afterwards.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.Kill()
}

// Do is Try that fails the test on any error.
func (s *Server) Do(t testing.TB, args ...string) string {
	t.Helper()
	out, err := s.Try(args...)
	if err != nil {
		t.Fatalf("servertest: %s %s: %s: %v", s.Line, s.Addr, strings.Join(args, " "), err)
	}
	return out
}

// Info returns one INFO section as a map of its fields.
func (s *Server) Info(t testing.TB, section string) map[string]string {
	t.Helper()
	out, err := s.Server.Info(section)
	if err != nil {
		t.Fatalf("servertest: %s %s: INFO %s: %v", s.Line, s.Addr, section, err)
	}
	return out
}

// AddUser creates an ACL user with a password and rules, e.g.
// s.AddUser(t, "probe", "pw", servertest.ProbeACL).
func (s *Server) AddUser(t testing.TB, name, password, rules string) {
	t.Helper()
	args := []string{"ACL", "SETUSER", name, "reset", "on", ">" + password}
	args = append(args, strings.Fields(rules)...)
	s.Do(t, args...)
}

// UnloadLua removes the Lua engine (Valkey 9.1+, started with
// Config.ModuleCommand): the server then has engines_count:0.
func (s *Server) UnloadLua(t testing.TB) {
	t.Helper()
	if !s.Config.ModuleCommand {
		t.Fatalf("servertest: UnloadLua on %s: start it with Config{ModuleCommand: true}", s.Addr)
	}
	s.Do(t, "MODULE", "UNLOAD", "lua")
	if n := s.Info(t, "scriptingengines")["engines_count"]; n != "0" {
		t.Fatalf("servertest: after MODULE UNLOAD lua, %s has engines_count %q", s.Addr, n)
	}
}

// waitFor polls cond until it returns "" (settled) or SettleTimeout passes;
// cond's last message explains what did not settle.
func waitFor(t testing.TB, what string, cond func() string) {
	t.Helper()
	if err := localfleet.Poll(context.Background(), SettleTimeout, what, cond); err != nil {
		t.Fatalf("servertest: %v", err)
	}
}
