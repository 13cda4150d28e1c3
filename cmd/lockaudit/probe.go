package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lockaudit/lockaudit/internal/outfile"
	"github.com/lockaudit/lockaudit/internal/secret"
	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

func init() {
	register(&command{
		Name:    "probe",
		Usage:   "probe [flags] HOST[:PORT]...\nprobe [flags] -sentinel HOST[:PORT][,...] [-master NAME] [HOST[:PORT]...]\nprobe -watch INTERVAL [-listen HOST:PORT] [flags] HOST[:PORT]...",
		Summary: "Read live Valkey/Redis nodes (never writing): is the native lock path safe on them?",
		Doc: `The probe says whether the native lock path is safe on every node that
can become primary.

From the seed addresses the probe discovers the topology (standalone,
primary/replica chains, Sentinel, cluster) and reads each node: version,
DELIFEQ/DELEX (COMMAND INFO), SET IFEQ (COMMAND DOCS SET), Lua (INFO
scriptingengines), role and promotability, persistence, eviction and
clock. It prints a node table, findings LA201-LA210 and a verdict:
native_release and native_extend are safe, unsafe or unknown; lua is
available, missing or unknown. Unknown is never safe.

A host without a port means port 6379, as valkey-cli assumes (26379 for
-sentinel). Defaults come from the probe: section of .lockaudit.yaml
(found by walking up from the working directory, or -config); flags win
over it. The password comes from LOCKAUDIT_PASSWORD or -password-file,
never from a flag value; an address with credentials in it (user:pass@,
redis://) is refused without being shown.

TLS (-tls; -tls-ca, -tls-cert and -tls-server-name imply it): the
server's certificate is always verified, against -tls-ca or else the
system's CA roots, for -tls-server-name or else the address's host.
There is no switch to turn verification off.

With -watch INTERVAL it probes again INTERVAL after each probe ends, and
serves on -listen (default 127.0.0.1:9187, loopback only) Prometheus
metrics (/metrics: the verdict per path, each node's answers, probe
errors, last success time, build info), the latest HTML report (/report;
JSON at /report.json) and /healthz until it is stopped (Ctrl-C,
SIGTERM). It answers only requests for loopback names, the listening
address and -allow-host names. It writes no report file.`,
		Examples: `lockaudit probe 127.0.0.1                       # port 6379; any node of the set
lockaudit probe 10.0.0.5:7000                   # cluster: any node, the rest is discovered
lockaudit probe -sentinel 10.0.0.9,10.0.0.10 -master mymaster
LOCKAUDIT_PASSWORD=... lockaudit probe -user probe -tls -tls-ca ca.pem redis.internal:6380
lockaudit probe -uses lua -format json -o fleet.json 127.0.0.1
lockaudit probe -watch 30s -listen 127.0.0.1:9187 10.0.0.1   # metrics for a Prometheus on this host`,
		Exit: `0  every verdict the code relies on (-uses) is safe; -watch: stopped
1  no node could be probed at all (-watch: the -listen address could
   not be listened on)
2  usage error, including a bad config file or -o
3  a verdict relied on is unsafe, or an error finding (0 with -exit-zero)
4  a verdict relied on is unknown (evidence missing)`,
		Run: runProbe,
	})
}

// connFlags say which fleet to read and how to connect. probe and audit
// share them: register adds the flags, resolve fills what the command line
// left unset from the config file's probe: section (flags win), checks
// them, and options builds probe.Options.
type connFlags struct {
	addr, sentinel, master, user, passwordFile string
	tls                                        bool
	tlsCA, tlsCert, tlsKey, tlsServer          string
	timeout, deadline, skew                    time.Duration
	parallel                                   int
	resp2                                      bool

	// Set by resolve.
	addrs     []string // -addr, the command line's addresses, or the file's addrs
	sentinels []string
	config    *config.File // the config file read (nil: none), for its rules: settings
}

// passwordFlags are flag spellings other tools use for a password; probe
// and audit refuse them so a secret never sits in argv or shell history.
var passwordFlags = []string{"password", "pass", "a", "auth", "requirepass", "p"}

// refusePasswordFlags rejects -password and friends before flag parsing,
// without echoing their value.
func refusePasswordFlags(args []string) error {
	for _, a := range args {
		name := strings.TrimLeft(a, "-")
		if name == a || a == "-" || a == "--" {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		for _, p := range passwordFlags {
			if name == p {
				return usageError("-%s: passwords are never taken from flags (they end up in shell history and ps); set LOCKAUDIT_PASSWORD or use -password-file FILE", name)
			}
		}
	}
	return nil
}

func (c *connFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.addr, "addr", "", "seed nodes: `HOST[:PORT][,HOST[:PORT]]`, port 6379 when not given (default: the config file's probe.addrs)")
	fs.StringVar(&c.sentinel, "sentinel", "", "discover through Sentinel: `HOST[:PORT][,HOST[:PORT]]`, port 26379 when not given")
	fs.StringVar(&c.master, "master", "", "with -sentinel: the monitored primary's `NAME` (default: every primary the Sentinels monitor)")
	fs.StringVar(&c.user, "user", "", "ACL `USER` to authenticate as (the password comes from LOCKAUDIT_PASSWORD or -password-file)")
	fs.StringVar(&c.passwordFile, "password-file", "", "read the password from `FILE` (its first line); overrides LOCKAUDIT_PASSWORD")
	fs.BoolVar(&c.tls, "tls", false, "connect with TLS, verifying the server's certificate")
	fs.StringVar(&c.tlsCA, "tls-ca", "", "verify servers against the CA certificates in `FILE` (PEM; implies -tls)")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "client certificate `FILE` (PEM; needs -tls-key; implies -tls)")
	fs.StringVar(&c.tlsKey, "tls-key", "", "client key `FILE` (PEM)")
	fs.StringVar(&c.tlsServer, "tls-server-name", "", "verify every server's certificate against `NAME` instead of its address")
	fs.DurationVar(&c.timeout, "timeout", probe.DefaultTimeout, "per node: dial, handshake and each command")
	fs.DurationVar(&c.deadline, "deadline", probe.DefaultDeadline, "the whole probe; nodes not read by then are reported unknown")
	fs.IntVar(&c.parallel, "parallel", probe.DefaultParallel, "nodes probed at once")
	fs.DurationVar(&c.skew, "skew", probe.DefaultSkew, "clock difference between a replica and its primary that LA207 reports")
	fs.BoolVar(&c.resp2, "resp2", false, "speak RESP2 even to servers that offer RESP3 (for old proxies)")
}

// resolve applies the config file's probe: defaults to every flag the
// command line did not set (paths in the file are relative to the file),
// adds args (positional addresses) and checks the result. what names the
// addresses in errors ("ADDR arguments" or "-addr").
func (c *connFlags) resolve(fs *flag.FlagSet, cfg *config.File, args []string, what string) error {
	c.config = cfg
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if cfg != nil {
		p := cfg.Probe
		rel := func(path string) string {
			if path == "" || filepath.IsAbs(path) {
				return path
			}
			return filepath.Join(filepath.Dir(cfg.Path), path)
		}
		str := func(name string, dst *string, v string) {
			if !set[name] && v != "" {
				*dst = v
			}
		}
		dur := func(name string, dst *time.Duration, v time.Duration) {
			if !set[name] && v > 0 {
				*dst = v
			}
		}
		// Addresses from the file only when the command line names no
		// node at all (a seed given on the command line is a new target).
		if !set["addr"] && !set["sentinel"] && len(args) == 0 {
			c.addr = strings.Join(p.Addrs, ",")
			c.sentinel = strings.Join(p.Sentinel, ",")
			str("master", &c.master, p.Master)
		}
		str("user", &c.user, p.User)
		str("password-file", &c.passwordFile, rel(p.PasswordFile))
		if !set["tls"] && p.TLS.Enabled {
			c.tls = true
		}
		str("tls-ca", &c.tlsCA, rel(p.TLS.CA))
		str("tls-cert", &c.tlsCert, rel(p.TLS.Cert))
		str("tls-key", &c.tlsKey, rel(p.TLS.Key))
		str("tls-server-name", &c.tlsServer, p.TLS.ServerName)
		dur("timeout", &c.timeout, p.Timeout)
		dur("deadline", &c.deadline, p.Deadline)
		dur("skew", &c.skew, p.Skew)
		if !set["parallel"] && p.Parallel > 0 {
			c.parallel = p.Parallel
		}
	}
	c.addrs, c.sentinels = splitList(c.addr), splitList(c.sentinel)
	c.addrs = append(c.addrs, args...)
	for _, a := range append(append([]string(nil), c.addrs...), c.sentinels...) {
		if strings.HasPrefix(a, "-") && !secret.InAddr(a) {
			return usageError("%s is not an address (after --, every argument is an address)", a)
		}
	}
	for i, a := range c.addrs {
		c.addrs[i] = withDefaultPort(a, DefaultPort)
	}
	for i, a := range c.sentinels {
		c.sentinels[i] = withDefaultPort(a, DefaultSentinelPort)
	}
	// Checked now, before audit's code half spends its time. An address
	// with credentials in it is refused without being echoed.
	for _, list := range []struct {
		name  string
		addrs []string
	}{{"address", c.addrs}, {"-sentinel address", c.sentinels}} {
		for i, a := range list.addrs {
			if err := probe.CheckAddr(a); err != nil {
				return usageError("%s %d: %v", list.name, i+1, err)
			}
		}
	}
	if len(c.addrs) == 0 && len(c.sentinels) == 0 {
		return usageError("no address to probe: give %s, or -sentinel HOST[:PORT] -master NAME (or probe.addrs in %s)", what, config.FileName)
	}
	if c.master != "" && len(c.sentinels) == 0 {
		return usageError("-master needs -sentinel")
	}
	switch {
	case c.timeout <= 0:
		return usageError("-timeout must be positive")
	case c.deadline <= 0:
		return usageError("-deadline must be positive")
	case c.parallel < 1:
		return usageError("-parallel must be at least 1")
	case c.skew <= 0:
		return usageError("-skew must be positive")
	case (c.tlsCert == "") != (c.tlsKey == ""):
		return usageError("-tls-cert and -tls-key go together")
	}
	return nil
}

// The ports a host without one means, as valkey-cli and redis-cli assume.
const (
	DefaultPort         = "6379"
	DefaultSentinelPort = "26379"
)

// withDefaultPort gives a host without a port the default port: "10.0.0.1"
// and "valkey.internal" get it, as do a bare IPv6 address ("::1") and a
// bracketed one ("[::1]"). An address with a port, one with credentials in
// it, or one that is not a plain host, is returned as it is, for
// probe.CheckAddr to judge.
func withDefaultPort(addr, port string) string {
	if _, _, err := net.SplitHostPort(addr); err == nil || secret.InAddr(addr) {
		return addr
	}
	host := strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]")
	if ip := net.ParseIP(host); ip != nil {
		return net.JoinHostPort(host, port)
	}
	if host == "" || host != addr || strings.ContainsAny(host, ":/ ") {
		return addr
	}
	return net.JoinHostPort(host, port)
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// options builds the probe's options: addresses, credentials, TLS and
// limits. Relative -password-file and -tls-* paths are taken from dir (the
// working directory, or audit's -C, like its other paths). The caller
// sets Uses (or Code) and Progress.
func (c *connFlags) options(ctx context.Context, e *env, dir string) (probe.Options, error) {
	pw, err := c.password(ctx, e, dir)
	if err != nil {
		return probe.Options{}, err
	}
	tlsCfg, err := c.tlsConfig(dir)
	if err != nil {
		return probe.Options{}, err
	}
	return probe.Options{
		Addrs: c.addrs, Sentinels: c.sentinels, Master: c.master,
		User: c.user, Password: pw, TLS: tlsCfg,
		Timeout: c.timeout, Deadline: c.deadline, Parallel: c.parallel,
		Skew: c.skew, RESP2: c.resp2, Version: version(),
	}, nil
}

// password reads the password from -password-file or LOCKAUDIT_PASSWORD.
func (c *connFlags) password(ctx context.Context, e *env, dir string) (string, error) {
	if c.passwordFile != "" {
		pw, err := readPasswordFile(ctx, inDir(dir, c.passwordFile))
		if err != nil {
			if err := stopped(ctx); err != nil {
				return "", err // interrupted (SIGINT, SIGTERM) while reading
			}
			return "", usageError("-password-file %s", err)
		}
		e.passwords = append(e.passwords, pw)
		return pw, nil
	}
	return e.Getenv(secret.Env), nil
}

// passwordReadTimeout bounds reading -password-file (a file on a hung
// network mount): past it the command stops with a usage error.
const passwordReadTimeout = 10 * time.Second

// maxPasswordFile bounds what is read of -password-file: a password is a
// line, not a file.
const maxPasswordFile = 64 << 10

// readPasswordFile reads the password, the first line of a regular file
// (a symbolic link to one, as secret mounts are, is followed). A named
// pipe, a device, a socket or a folder is refused without reading it — a
// FIFO nobody writes to would block for ever — and so is a file whose
// first line is empty: an empty password is never sent. The read has a
// deadline and stops when ctx ends (Ctrl-C, SIGTERM). Errors start with
// the path and never hold the file's content.
func readPasswordFile(ctx context.Context, path string) (string, error) {
	// O_NONBLOCK: opening a FIFO for reading waits for a writer otherwise.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("%s: %v", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return "", fmt.Errorf("%s: %v", path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return "", fmt.Errorf("%s is %s, not a regular file: put the password in a file (or set %s)", path, outfile.Kind(fi.Mode()), secret.Env)
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, maxPasswordFile))
		done <- result{data, err}
	}()
	timer := time.NewTimer(passwordReadTimeout)
	defer timer.Stop()
	var r result
	select {
	case r = <-done:
	case <-timer.C:
		return "", fmt.Errorf("%s: not read within %s", path, passwordReadTimeout)
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if r.err != nil {
		return "", fmt.Errorf("%s: %v", path, r.err)
	}
	line, _, _ := strings.Cut(string(r.data), "\n")
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		return "", fmt.Errorf("%s: the first line is empty: no password to send (an empty password is never sent; omit -password-file to connect without one)", path)
	}
	return line, nil
}

// inDir makes a relative path relative to dir.
func inDir(dir, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// tlsConfig builds the TLS settings. Verification is always on: against
// -tls-ca, else the system's roots, and against -tls-server-name, else each
// node's host; nothing turns it off.
func (c *connFlags) tlsConfig(dir string) (*tls.Config, error) {
	if !c.tls && c.tlsCA == "" && c.tlsCert == "" && c.tlsServer == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: c.tlsServer}
	if c.tlsCA != "" {
		pem, err := os.ReadFile(inDir(dir, c.tlsCA))
		if err != nil {
			return nil, usageError("-tls-ca: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, usageError("-tls-ca %s: no PEM certificate in it", c.tlsCA)
		}
		cfg.RootCAs = pool
	}
	if c.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(inDir(dir, c.tlsCert), inDir(dir, c.tlsKey))
		if err != nil {
			return nil, usageError("-tls-cert/-tls-key: %v", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// parseUses reads -uses (or probe.uses); "" is none named: the probe
// then assumes the native path of the fleet's flavor.
func parseUses(list string) ([]rules.Command, error) {
	if list == "" {
		return nil, nil
	}
	uses, err := rules.ParseCommands(list)
	if err != nil {
		return nil, usageError("-uses: %v", err)
	}
	return uses, nil
}

// useNames spells commands as -uses and probe.uses take them.
func useNames(cs []rules.Command) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// probeFlags are probe's parsed flags.
type probeFlags struct {
	conn             connFlags
	configPath, uses string
	reports          reportFlags
	watch            watchFlags
	plan             *outPlan
	exitZero         bool
}

func parseProbeFlags(e *env, args []string) (*probeFlags, error) {
	if err := refusePasswordFlags(args); err != nil {
		return nil, err
	}
	o := &probeFlags{}
	fs := newFlagSet(e, "probe")
	o.conn.register(fs)
	fs.StringVar(&o.configPath, "config", "", "read defaults from `FILE` (default: the first "+config.FileName+" found walking up from the working directory)")
	fs.StringVar(&o.uses, "uses", "", "what the code relies on: `LIST` of delifeq, delex, ifeq, lua (the exit status follows these verdicts; default: the config file's probe.uses, else assumed: the native path of the fleet's flavor, delifeq,ifeq on Valkey, delex,ifeq on Redis)")
	o.reports.register(fs)
	fs.DurationVar(&o.watch.interval, "watch", 0, "probe again this `INTERVAL` after each probe and serve metrics and the latest report on -listen")
	fs.StringVar(&o.watch.listen, "listen", defaultListen, "with -watch: serve /metrics, /report, /report.json and /healthz on `HOST:PORT` (a bare PORT is loopback's; :PORT serves every interface)")
	fs.StringVar(&o.watch.allowHosts, "allow-host", "", "with -watch: also answer requests for these Host `NAMES`, comma-separated (\"*\": any), e.g. the name Prometheus scrapes; loopback names and the listening address are always answered")
	registerExitZero(fs, &o.exitZero)
	if done, err := parseFlags(fs, args); done {
		return nil, err
	}
	set := flagsSet(fs)
	switch {
	case o.watch.interval < 0:
		return nil, usageError("-watch must be a positive interval such as 30s")
	case o.watch.interval == 0 && (set["listen"] || set["allow-host"]):
		return nil, usageError("-listen and -allow-host need -watch INTERVAL")
	case o.watch.interval > 0 && len(o.reports.outs) > 0:
		return nil, usageError("-watch serves the latest report at /report; it writes no -o file")
	}
	if o.watch.interval > 0 {
		addr, err := listenAddr(o.watch.listen)
		if err != nil {
			return nil, usageError("%v", err)
		}
		o.watch.listen = addr
	}
	cfg, err := loadConfig(e.Dir, o.configPath)
	if err != nil {
		return nil, err
	}
	if err := o.conn.resolve(fs, cfg, fs.Args(), "HOST[:PORT] arguments"); err != nil {
		return nil, err
	}
	if o.uses == "" && cfg != nil && len(cfg.Probe.Uses) > 0 {
		o.uses = strings.Join(cfg.Probe.Uses, ",")
	}
	// The outputs are checked before probing: a bad -o fails at once (exit 2).
	if o.plan, err = o.reports.plan(e.Dir); err != nil {
		return nil, err
	}
	return o, nil
}

func runProbe(ctx context.Context, e *env, args []string) error {
	o, err := parseProbeFlags(e, args)
	if o == nil || err != nil {
		return err
	}
	opts, err := o.conn.options(ctx, e, e.Dir)
	if err != nil {
		return err
	}
	if opts.Uses, err = parseUses(o.uses); err != nil {
		return err
	}
	if o.watch.interval > 0 {
		o.watch.failOn = o.plan.failOn
		return watchProbe(ctx, e, opts, o.conn.config, o.watch)
	}
	prog := newProgress(e, "probe", o.plan)
	opts.Progress = prog.nodes
	prog.phase("probing the fleet")
	run, err := probe.Run(ctx, opts)
	prog.done()
	if err := stopped(ctx); err != nil {
		return err // an interrupted probe is not evidence, whatever it returned
	}
	if err != nil {
		return usageError("%v", err)
	}
	applyRuleSettings(run, o.conn.config)
	return writeReports(ctx, e, "probe", run, o.plan, render.Options{}, o.exitZero)
}
