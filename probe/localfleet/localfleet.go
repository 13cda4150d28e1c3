// Package localfleet starts real Valkey and Redis servers on free loopback
// ports — standalone nodes and primary/replica chains with mixed versions —
// waits (with a bound) until they have settled, and kills them. It is the
// launcher behind probe/servertest (which adds testing.TB cleanup) and
// `lockaudit demo`; it does not import "testing".
//
// The servers come from Debian's packages, installed by .ci/install-servers
// into $LOCKAUDIT_SERVERS (default ${XDG_CACHE_HOME:-~/.cache}/lockaudit/servers).
// Each server runs in its own process group (so a kill takes its children
// too) and, on Linux, with the parent-death signal set, so servers die with
// the process that started them even when it is killed (see proc_*.go).
//
// A server may also be a binary found elsewhere (on PATH): Config.Install
// names it, and it runs as it is, without a loader.
package localfleet

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

// Installed server lines (the folder names .ci/install-servers creates).
const (
	Valkey91 = "valkey-9.1"
	Valkey81 = "valkey-8.1"
	Valkey80 = "valkey-8.0"
	Redis70  = "redis-7.0"
	Redis86  = "redis-8.6"
)

// All lists every server line the install script provides.
var All = []string{Valkey91, Valkey81, Valkey80, Redis70, Redis86}

// Dir returns the folder the servers are installed in, from the process
// environment.
func Dir() string { return DirFrom(os.Getenv) }

// DirFrom is Dir with the environment read through getenv.
func DirFrom(getenv func(string) string) string {
	if d := getenv("LOCKAUDIT_SERVERS"); d != "" {
		return d
	}
	cache := getenv("XDG_CACHE_HOME")
	if cache == "" {
		home := getenv("HOME")
		if home == "" {
			home, _ = os.UserHomeDir()
		}
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
// its own suite's loader and libraries (directly when it has no Loader).
func (in Install) Command(args ...string) *exec.Cmd {
	if in.Loader == "" {
		return exec.Command(in.Server, args...)
	}
	return exec.Command(in.Loader, append([]string{"--library-path", in.LibPath, in.Server}, args...)...)
}

// CLICommand returns a command running the matching valkey-cli/redis-cli.
func (in Install) CLICommand(args ...string) *exec.Cmd {
	if in.Loader == "" {
		return exec.Command(in.CLI, args...)
	}
	return exec.Command(in.Loader, append([]string{"--library-path", in.LibPath, in.CLI}, args...)...)
}

var (
	installsMu sync.Mutex
	installs   = map[string]Install{} // by server.env path
)

// Lookup reads an installed server line from Dir; the error says how to
// install it.
func Lookup(name string) (Install, error) { return LookupIn(Dir(), name) }

// LookupIn reads an installed server line from the folder dir.
func LookupIn(dir, name string) (Install, error) {
	path := filepath.Join(dir, name, "server.env")
	installsMu.Lock()
	defer installsMu.Unlock()
	if in, ok := installs[path]; ok {
		return in, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Install{}, fmt.Errorf("%s is not installed (%v): run .ci/install-servers (it installs Redis 7.0, 8.6 and Valkey 8.0, 8.1, 9.1 into %s)", name, err, dir)
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
	installs[path] = in
	return in, nil
}

// Config describes one server to start.
type Config struct {
	Version       string   // server line; default Valkey91
	Password      string   // requirepass and masterauth; the helpers authenticate with it
	ModuleCommand bool     // enable-module-command yes (MODULE UNLOAD lua needs it)
	Args          []string // extra arguments, e.g. "--rename-command", "CONFIG", ""; {port} and {busport} stand for the server's ports
	Servers       string   // the install folder; default Dir()
	// Port, when set, is the port to listen on (no retry on another):
	// a server that replaces another at its address, as in an upgrade.
	Port int
	// Install, when set, is the server to run (one found on PATH) instead
	// of the line Version installed in Servers.
	Install *Install
	// Env is added to the server's environment (e.g. LD_PRELOAD of a
	// library that shifts its clock, for a drill of clock skew).
	Env []string
}

// Line is the server line to start.
func (c Config) Line() string {
	if c.Install != nil {
		return c.Install.Name
	}
	if c.Version == "" {
		return Valkey91
	}
	return c.Version
}

func (c Config) install() (Install, error) {
	if c.Install != nil {
		return *c.Install, nil
	}
	if c.Servers != "" {
		return LookupIn(c.Servers, c.Line())
	}
	return Lookup(c.Line())
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
	Config  Config

	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

// StartTimeout bounds the wait for a new server to answer on its port.
const StartTimeout = 10 * time.Second

// Start runs one server and waits until it answers on its port (checked by
// process ID: another server that took the port must not pass). newDir returns a
// new empty folder for it (its working folder and log; the caller owns
// it). extra are arguments after the common ones ({busport} is the second
// port), conf a config file text passed first ({port} is the port; Sentinel
// needs one). A port taken before the server binds it is retried with new
// ports. On error nothing is left running.
func Start(ctx context.Context, newDir func() (string, error), c Config, extra []string, conf string) (*Server, error) {
	in, err := c.install()
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		dir, err := newDir()
		if err != nil {
			return nil, err
		}
		ports, err := freePorts(2)
		if err != nil {
			return nil, err
		}
		if c.Port != 0 {
			ports[0] = c.Port
		}
		s, err := tryStart(ctx, dir, in, c, extra, conf, ports)
		if err == nil {
			return s, nil
		}
		lastErr = err
		if !errors.Is(err, errPortInUse) || c.Port != 0 {
			break
		}
	}
	return nil, fmt.Errorf("starting %s: %v", c.Line(), lastErr)
}

var errPortInUse = errors.New("port in use")

// tryStart starts a server on ports[0] (ports[1] is {busport}).
func tryStart(ctx context.Context, dir string, in Install, c Config, extra []string, conf string, ports []int) (*Server, error) {
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0])), Port: ports[0], Line: in.Name, Version: in.Version, Dir: dir, Install: in, Config: c, done: make(chan struct{})}
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
	// {busport} (in extra or Args) is the second port, and makes it the
	// Server's BusPort; Args may also name {port}.
	busport := func(a string) string {
		if strings.Contains(a, "{busport}") {
			s.BusPort = ports[1]
		}
		return strings.ReplaceAll(a, "{busport}", strconv.Itoa(ports[1]))
	}
	for _, a := range extra {
		args = append(args, busport(a))
	}
	for _, a := range c.Args {
		args = append(args, busport(strings.ReplaceAll(a, "{port}", strconv.Itoa(s.Port))))
	}

	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	cmd := in.Command(args...)
	cmd.Dir = dir
	if len(c.Env) > 0 {
		cmd.Env = append(os.Environ(), c.Env...)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = procAttr()
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
	deadline := time.Now().Add(StartTimeout)
	for {
		select {
		case <-s.done:
			log := s.LogTail(20)
			if strings.Contains(log, "Address already in use") {
				return nil, fmt.Errorf("%w: %s", errPortInUse, s.Addr)
			}
			return nil, fmt.Errorf("%s exited at start:\n%s", s.Line, log)
		case <-ctx.Done():
			s.Kill()
			return nil, ctx.Err()
		default:
		}
		// Ready means OUR process answers on the port: another server that
		// took the port first would answer too, while ours fails to bind.
		pid, err := s.answeringPid()
		if err == nil && pid == s.Pid() {
			return s, nil
		}
		if err == nil {
			err = fmt.Errorf("process %d answers on the port, not ours (%d)", pid, s.Pid())
		}
		if time.Now().After(deadline) {
			s.Kill()
			return nil, fmt.Errorf("%s at %s does not answer after %s (last: %v):\n%s", s.Line, s.Addr, StartTimeout, err, s.LogTail(20))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill ends the server's whole process group and waits (a bounded time)
// for it to exit. Killing a server twice is harmless.
func (s *Server) Kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	killGroup(s.cmd.Process)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
	}
}

// Exited reports whether the server process has exited.
func (s *Server) Exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Pid is the server's process ID (its process group ID too).
func (s *Server) Pid() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
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

// answeringPid asks the server on s's port for its process ID.
func (s *Server) answeringPid() (int, error) {
	info, err := s.Info("server")
	if err != nil {
		return 0, err
	}
	pid, ok := info["process_id"]
	if !ok {
		return 0, errors.New("INFO server has no process_id")
	}
	return strconv.Atoi(pid)
}

var (
	portsMu sync.Mutex
	// portsOut holds every port this process has handed to a server, so
	// servers started at the same moment never get the same port (the
	// kernel may give a just-closed probe port out again).
	portsOut = map[int]bool{}
)

// freePorts returns n distinct loopback ports that were free a moment ago
// and were never handed out before by this process.
func freePorts(n int) ([]int, error) {
	portsMu.Lock()
	defer portsMu.Unlock()
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for len(ports) < n {
		if len(ls) > n+1000 {
			return nil, errors.New("no free loopback port left")
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l) // held open until all are chosen: distinct ports
		if p := l.Addr().(*net.TCPAddr).Port; !portsOut[p] {
			portsOut[p] = true
			ports = append(ports, p)
		}
	}
	return ports, nil
}

// Try sends one admin command (authenticated with the Config's password)
// and returns the reply as text: strings as they are, integers in decimal,
// nil as "", arrays and maps in a compact form. An error reply is an error.
func (s *Server) Try(args ...string) (string, error) {
	v, err := s.Raw(args...)
	if err != nil {
		return "", err
	}
	if v.Kind == resp.Err {
		return "", errors.New(v.Str)
	}
	return text(v), nil
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

// Raw sends one command on a new connection (authenticated with the
// Config's password) and returns the reply as it is, error replies included.
func (s *Server) Raw(args ...string) (resp.Value, error) {
	c, err := resp.Dial(s.Addr, 10*time.Second)
	if err != nil {
		return resp.Value{}, err
	}
	defer c.Close()
	if s.Config.Password != "" {
		if v, err := c.Do("AUTH", s.Config.Password); err != nil {
			return resp.Value{}, err
		} else if v.Kind == resp.Err {
			return resp.Value{}, fmt.Errorf("AUTH: %s", v.Str)
		}
	}
	return c.Do(args...)
}

// Info returns one INFO section as a map of its fields.
func (s *Server) Info(section string) (map[string]string, error) {
	v, err := s.Try("INFO", section)
	if err != nil {
		return nil, err
	}
	return resp.InfoFields(v), nil
}

// Poll calls cond until it returns "" (settled), ctx ends or timeout
// passes; the error quotes cond's last message, which says what did not
// settle.
func Poll(ctx context.Context, timeout time.Duration, what string, cond func() string) error {
	deadline := time.Now().Add(timeout)
	for {
		msg := cond()
		if msg == "" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not settle within %s: %s", what, timeout, msg)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", what, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// WaitReplicating waits until s replicates primary with its link up and
// the primary lists s as an online replica.
func (s *Server) WaitReplicating(ctx context.Context, primary *Server, timeout time.Duration) error {
	return Poll(ctx, timeout, fmt.Sprintf("replication %s -> %s", s.Addr, primary.Addr), func() string {
		info, err := s.Info("replication")
		if err != nil {
			return err.Error()
		}
		if info["master_port"] != strconv.Itoa(primary.Port) || info["master_link_status"] != "up" {
			return fmt.Sprintf("replica: master_port %s, master_link_status %s", info["master_port"], info["master_link_status"])
		}
		pinfo, err := primary.Info("replication")
		if err != nil {
			return err.Error()
		}
		for k, v := range pinfo {
			if strings.HasPrefix(k, "slave") && strings.Contains(v, "port="+strconv.Itoa(s.Port)+",") && strings.Contains(v, "state=online") {
				return ""
			}
		}
		return "the primary does not list it as online yet"
	})
}

// KillAll kills every server (nil entries are skipped).
func KillAll(servers []*Server) {
	var wg sync.WaitGroup
	for _, s := range servers {
		if s != nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.Kill()
			}()
		}
	}
	wg.Wait()
}

// StartAll starts servers concurrently (start-up is mostly waiting); extra
// gives each server's additional arguments (nil: none). On error every
// server it started is killed.
func StartAll(ctx context.Context, newDir func() (string, error), cfgs []Config, extra func(i int) []string) ([]*Server, error) {
	for _, c := range cfgs {
		if _, err := c.install(); err != nil {
			return nil, err
		}
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
			out[i], errs[i] = Start(ctx, newDir, cfgs[i], args, "")
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
		KillAll(out)
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	return out, nil
}

// Node is one server of a replication set: its Config and the index (in
// the StartReplication arguments) of the node it replicates. The first node
// is the primary; its Of is ignored.
type Node struct {
	Config
	Of int
}

// StartReplication starts a primary and replicas (replicas of replicas
// when Of points at a replica), and waits (each link at most settle) until
// every replication link is up and every primary lists its replicas. It
// returns the servers in argument order; on error every server is killed.
func StartReplication(ctx context.Context, newDir func() (string, error), settle time.Duration, nodes ...Node) ([]*Server, error) {
	if len(nodes) == 0 {
		return nil, errors.New("StartReplication needs at least a primary")
	}
	for i := 1; i < len(nodes); i++ {
		if nodes[i].Of < 0 || nodes[i].Of >= len(nodes) || nodes[i].Of == i {
			return nil, fmt.Errorf("node %d replicates node %d, which does not exist", i, nodes[i].Of)
		}
	}
	cfgs := make([]Config, len(nodes))
	for i, n := range nodes {
		cfgs[i] = n.Config
	}
	servers, err := StartAll(ctx, newDir, cfgs, nil)
	if err != nil {
		return nil, err
	}
	fail := func(err error) ([]*Server, error) {
		msg := err.Error()
		for _, s := range servers {
			msg += fmt.Sprintf("\n%s %s log tail:\n%s", s.Line, s.Addr, s.LogTail(10))
		}
		KillAll(servers)
		return nil, errors.New(msg)
	}
	for i := 1; i < len(nodes); i++ {
		if _, err := servers[i].Try("REPLICAOF", "127.0.0.1", strconv.Itoa(servers[nodes[i].Of].Port)); err != nil {
			return fail(fmt.Errorf("%s %s: REPLICAOF: %v", servers[i].Line, servers[i].Addr, err))
		}
	}
	for i := 1; i < len(nodes); i++ {
		if err := servers[i].WaitReplicating(ctx, servers[nodes[i].Of], settle); err != nil {
			return fail(err)
		}
	}
	return servers, nil
}
