// Package servertest starts real Valkey and Redis servers for tests, the way
// net/http/httptest starts HTTP servers: standalone nodes, primary/replica
// chains, Sentinels and clusters on free loopback ports, with mixed versions.
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
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

// Installed server lines (the folder names .ci/install-servers creates).
const (
	Valkey91 = "valkey-9.1"
	Valkey81 = "valkey-8.1"
	Valkey80 = "valkey-8.0"
	Redis70  = "redis-7.0"
)

// All lists every server line the install script provides.
var All = []string{Valkey91, Valkey81, Valkey80, Redis70}

// ProbeACL is the read-only probe user's ACL for data nodes (TEST-SERVERS.md):
// pass it to Server.AddUser. SentinelProbeACL is the one for Sentinels.
const (
	ProbeACL         = "resetkeys resetchannels -@all +ping +info +command|info +command|docs +command|count +config|get +role +cluster|shards +cluster|nodes +cluster|info +cluster|myid +client|setname +time"
	SentinelProbeACL = "-@all +ping +info +role +sentinel|masters +sentinel|replicas +sentinel|sentinels +sentinel|get-master-addr-by-name"
)

// SettleTimeout bounds every wait for a topology to settle.
var SettleTimeout = 60 * time.Second

// Dir returns the folder the servers are installed in.
func Dir() string {
	if d := os.Getenv("LOCKAUDIT_SERVERS"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "lockaudit", "servers")
}

// Install is one installed server line, as described by its server.env.
type Install struct {
	Name    string // valkey-9.1
	Flavor  string // valkey or redis
	Version string // 9.1.2
	Loader  string // that suite's ld.so
	LibPath string // that suite's libraries
	Server  string // valkey-server (a symlink to valkey-check-rdb)
	CLI     string // valkey-cli
}

// Command returns a command running the server binary with args, through
// its own suite's loader and libraries.
func (in Install) Command(args ...string) *exec.Cmd {
	return exec.Command(in.Loader, append([]string{"--library-path", in.LibPath, in.Server}, args...)...)
}

// CLICommand returns a command running the matching valkey-cli/redis-cli.
func (in Install) CLICommand(args ...string) *exec.Cmd {
	return exec.Command(in.Loader, append([]string{"--library-path", in.LibPath, in.CLI}, args...)...)
}

var (
	installsMu sync.Mutex
	installs   = map[string]Install{}
)

// Lookup reads an installed server line; the error says how to install it.
func Lookup(name string) (Install, error) {
	installsMu.Lock()
	defer installsMu.Unlock()
	if in, ok := installs[name]; ok {
		return in, nil
	}
	path := filepath.Join(Dir(), name, "server.env")
	data, err := os.ReadFile(path)
	if err != nil {
		return Install{}, fmt.Errorf("%s is not installed (%v): run .ci/install-servers (it installs Redis 7.0 and Valkey 8.0, 8.1, 9.1 into %s)", name, err, Dir())
	}
	env := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			env[k] = v
		}
	}
	in := Install{Name: name, Flavor: env["FLAVOR"], Version: env["VERSION"], Loader: env["LOADER"], LibPath: env["LIBPATH"], Server: env["SERVER"], CLI: env["CLI"]}
	for k, v := range map[string]string{"LOADER": in.Loader, "SERVER": in.Server, "CLI": in.CLI} {
		if _, err := os.Stat(v); v == "" || err != nil {
			return Install{}, fmt.Errorf("%s: %s %q in %s is missing: run .ci/install-servers again", name, k, v, path)
		}
	}
	installs[name] = in
	return in, nil
}

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
type Config struct {
	Version       string   // server line; default Valkey91
	Password      string   // requirepass and masterauth; the helpers authenticate with it
	ModuleCommand bool     // enable-module-command yes (UnloadLua needs it)
	Args          []string // extra arguments, e.g. "--rename-command", "CONFIG", ""; {port} and {busport} stand for the server's ports
}

func (c Config) version() string {
	if c.Version == "" {
		return Valkey91
	}
	return c.Version
}

// Server is one running server process.
type Server struct {
	Addr    string // 127.0.0.1:PORT
	Port    int
	BusPort int    // the second port: the cluster bus, or whatever Args put at {busport} (e.g. a TLS port)
	Line    string // valkey-9.1
	Version string // 9.1.2
	Dir     string // working folder; the log is Dir/server.log
	Install Install

	cfg  Config
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

// Start starts one standalone server and waits until it answers PING.
func Start(t testing.TB, c Config) *Server {
	t.Helper()
	Require(t, c.version())
	s, err := startServer(t, c, nil, "")
	if err != nil {
		t.Fatalf("servertest: %v", err)
	}
	return s
}

// startServer runs a server; extra are arguments after the common ones, conf
// a config file to pass first (Sentinel needs one). It only returns errors,
// so servers can be started from several goroutines.
func startServer(t testing.TB, c Config, extra []string, conf string) (*Server, error) {
	in, err := Lookup(c.version())
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // a free port can be taken before the server binds it
		s, err := tryStart(t, in, c, extra, conf)
		if err == nil {
			return s, nil
		}
		lastErr = err
		if !errors.Is(err, errPortInUse) {
			break
		}
	}
	return nil, fmt.Errorf("starting %s: %v", c.version(), lastErr)
}

var errPortInUse = errors.New("port in use")

func tryStart(t testing.TB, in Install, c Config, extra []string, conf string) (*Server, error) {
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	dir := t.TempDir()
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0])), Port: ports[0], Line: in.Name, Version: in.Version, Dir: dir, Install: in, cfg: c, done: make(chan struct{})}
	var args []string
	if conf != "" {
		path := filepath.Join(dir, "server.conf")
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(conf, "{port}", strconv.Itoa(s.Port))), 0o600); err != nil {
			return nil, err
		}
		args = append(args, path)
	}
	args = append(args, "--port", strconv.Itoa(s.Port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", "")
	if conf == "" { // data nodes: replicas sync at once instead of waiting 5s for company
		args = append(args, "--repl-diskless-sync-delay", "0")
	}
	if c.Password != "" {
		args = append(args, "--requirepass", c.Password)
		if conf == "" { // Sentinel has no masterauth (it uses auth-pass)
			args = append(args, "--masterauth", c.Password)
		}
	}
	if c.ModuleCommand {
		args = append(args, "--enable-module-command", "yes")
	}
	for _, a := range extra {
		args = append(args, strings.ReplaceAll(a, "{busport}", strconv.Itoa(ports[1])))
	}
	for _, a := range append(append([]string(nil), extra...), c.Args...) {
		if strings.Contains(a, "{busport}") {
			s.BusPort = ports[1]
		}
	}
	for _, a := range c.Args {
		a = strings.ReplaceAll(a, "{port}", strconv.Itoa(ports[0]))
		args = append(args, strings.ReplaceAll(a, "{busport}", strconv.Itoa(ports[1])))
	}

	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	cmd := in.Command(args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	s.cmd = cmd
	go func() {
		cmd.Wait()
		logf.Close()
		close(s.done)
	}()
	t.Cleanup(func() {
		s.kill()
		if t.Failed() {
			t.Logf("servertest: %s %s (%s) log tail:\n%s", s.Line, s.Addr, s.Dir, s.LogTail(15))
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-s.done:
			log := s.LogTail(20)
			if strings.Contains(log, "Address already in use") {
				return nil, fmt.Errorf("%w: %s", errPortInUse, s.Addr)
			}
			return nil, fmt.Errorf("%s exited at start:\n%s", s.Line, log)
		default:
		}
		if v, err := s.Try("PING"); err == nil && v == "PONG" {
			return s, nil
		} else if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s at %s does not answer PING after 10s (last: %v):\n%s", s.Line, s.Addr, err, s.LogTail(20))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill ends the server's whole process group and waits for it.
func (s *Server) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
	}
}

// Stop kills the server now (to test a node that is down); cleanup is safe
// to run afterwards.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.kill()
}

// LogTail returns the last n lines of the server's log.
func (s *Server) LogTail(n int) string {
	data, _ := os.ReadFile(filepath.Join(s.Dir, "server.log"))
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// freePorts returns n distinct loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Try sends one admin command (authenticated with the Config's password)
// and returns the reply as text: strings as they are, integers in decimal,
// nil as "", arrays and maps in a compact form. An error reply is an error.
func (s *Server) Try(args ...string) (string, error) {
	v, err := s.do(args...)
	if err != nil {
		return "", err
	}
	if v.Kind == resp.Err {
		return "", errors.New(v.Str)
	}
	return text(v), nil
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

func text(v resp.Value) string {
	switch v.Kind {
	case resp.Nil:
		return ""
	case resp.Str, resp.Double:
		return v.Str
	case resp.Int, resp.Bool:
		return strconv.FormatInt(v.Int, 10)
	}
	return v.String()
}

func (s *Server) do(args ...string) (resp.Value, error) {
	c, err := resp.Dial(s.Addr, 10*time.Second)
	if err != nil {
		return resp.Value{}, err
	}
	defer c.Close()
	if s.cfg.Password != "" {
		if v, err := c.Do("AUTH", s.cfg.Password); err != nil {
			return resp.Value{}, err
		} else if v.Kind == resp.Err {
			return resp.Value{}, fmt.Errorf("AUTH: %s", v.Str)
		}
	}
	return c.Do(args...)
}

// Info returns one INFO section as a map of its fields.
func (s *Server) Info(t testing.TB, section string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(s.Do(t, "INFO", section)))
	for sc.Scan() {
		if k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":"); ok && !strings.HasPrefix(k, "#") {
			out[k] = v
		}
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
	if !s.cfg.ModuleCommand {
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
	deadline := time.Now().Add(SettleTimeout)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("servertest: %s did not settle within %s: %s", what, SettleTimeout, msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
