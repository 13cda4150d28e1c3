package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/report"
)

func init() {
	register(&command{
		Name:  "probe",
		Usage: "probe [flags] ADDR... | probe -sentinel HOST:PORT[,HOST:PORT] [-master NAME] [flags] [ADDR...]",
		Summary: `Read live Valkey/Redis nodes (never writing) and say whether the native lock
path is safe on every node that can become primary.

From the seed addresses the probe discovers the topology (standalone,
primary/replica chains, Sentinel, cluster) and reads each node: version,
DELIFEQ/DELEX (COMMAND INFO), SET IFEQ (COMMAND DOCS SET), Lua (INFO
scriptingengines), role and promotability, persistence, eviction and
clock. It prints a node table, findings LA201-LA210 and a verdict:
native_release and native_extend are safe, unsafe or unknown; lua is
available, missing or unknown. Unknown is never safe.

The password comes from LOCKAUDIT_PASSWORD or -password-file, never from a
flag value. TLS is verified unless you give it nothing to verify with.

Exit status: 0 every verdict the code relies on (-uses) is safe, 3 unsafe
(or an error finding), 4 unknown (evidence missing), 1 no node could be
probed at all, 2 usage error.`,
		Run: runProbe,
	})
}

// probeFlags are probe's parsed flags.
type probeFlags struct {
	sentinel, master, user, passwordFile string
	tls                                  bool
	tlsCA, tlsCert, tlsKey, tlsServer    string
	timeout, deadline, skew              time.Duration
	parallel                             int
	uses, format, out                    string
	resp2                                bool
	addrs                                []string
}

// passwordFlags are flag spellings other tools use for a password; probe
// refuses them so a secret never sits in argv or shell history.
var passwordFlags = []string{"password", "pass", "a", "auth", "requirepass", "p"}

func parseProbeFlags(e *env, args []string) (*probeFlags, error) {
	for _, a := range args {
		name := strings.TrimLeft(a, "-")
		if name == a || a == "-" || a == "--" {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		for _, p := range passwordFlags {
			if name == p {
				return nil, usageError("-%s: passwords are never taken from flags (they end up in shell history and ps); set LOCKAUDIT_PASSWORD or use -password-file FILE", name)
			}
		}
	}
	o := &probeFlags{}
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.StringVar(&o.sentinel, "sentinel", "", "discover through Sentinel: `HOST:PORT[,HOST:PORT]`")
	fs.StringVar(&o.master, "master", "", "with -sentinel: the monitored primary's `NAME` (default: every primary the Sentinels monitor)")
	fs.StringVar(&o.user, "user", "", "ACL `USER` to authenticate as (the password comes from LOCKAUDIT_PASSWORD or -password-file)")
	fs.StringVar(&o.passwordFile, "password-file", "", "read the password from `FILE` (its first line); overrides LOCKAUDIT_PASSWORD")
	fs.BoolVar(&o.tls, "tls", false, "connect with TLS, verifying the server's certificate")
	fs.StringVar(&o.tlsCA, "tls-ca", "", "verify servers against the CA certificates in `FILE` (PEM; implies -tls)")
	fs.StringVar(&o.tlsCert, "tls-cert", "", "client certificate `FILE` (PEM; needs -tls-key; implies -tls)")
	fs.StringVar(&o.tlsKey, "tls-key", "", "client key `FILE` (PEM)")
	fs.StringVar(&o.tlsServer, "tls-server-name", "", "verify every server's certificate against `NAME` instead of its address")
	fs.DurationVar(&o.timeout, "timeout", probe.DefaultTimeout, "per node: dial, handshake and each command")
	fs.DurationVar(&o.deadline, "deadline", probe.DefaultDeadline, "the whole probe; nodes not read by then are reported unknown")
	fs.IntVar(&o.parallel, "parallel", probe.DefaultParallel, "nodes probed at once")
	fs.StringVar(&o.uses, "uses", "delifeq,ifeq", "what the code relies on: `LIST` of delifeq, delex, ifeq, lua (the exit status follows these verdicts)")
	fs.DurationVar(&o.skew, "skew", probe.DefaultSkew, "clock difference between a replica and its primary that LA207 reports")
	fs.StringVar(&o.format, "format", "", "output `format`: text or json (default text, or from -o's extension)")
	fs.StringVar(&o.out, "o", "", "write the report to `FILE` instead of stdout")
	fs.BoolVar(&o.resp2, "resp2", false, "speak RESP2 even to servers that offer RESP3 (for old proxies)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: lockaudit %s\n\n", commands["probe"].Usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil
		}
		return nil, exitWith(report.ExitUsage)
	}
	o.addrs = fs.Args()
	for i, a := range o.addrs {
		if strings.HasPrefix(a, "-") {
			return nil, usageError("flag %s after the addresses: flags go first", a)
		}
		if strings.Contains(a, "@") || strings.Contains(a, "://") {
			// Do not echo it: it may carry credentials.
			return nil, usageError("address %d looks like a URL (it may hold a password): give HOST:PORT, and the password through LOCKAUDIT_PASSWORD or -password-file", i+1)
		}
	}
	if len(o.addrs) == 0 && o.sentinel == "" {
		return nil, usageError("no address to probe: give HOST:PORT arguments, or -sentinel HOST:PORT -master NAME\n\nusage: lockaudit %s", commands["probe"].Usage)
	}
	if o.master != "" && o.sentinel == "" {
		return nil, usageError("-master needs -sentinel")
	}
	switch {
	case o.timeout <= 0:
		return nil, usageError("-timeout must be positive")
	case o.deadline <= 0:
		return nil, usageError("-deadline must be positive")
	case o.parallel < 1:
		return nil, usageError("-parallel must be at least 1")
	case o.skew <= 0:
		return nil, usageError("-skew must be positive")
	case (o.tlsCert == "") != (o.tlsKey == ""):
		return nil, usageError("-tls-cert and -tls-key go together")
	}
	if o.format == "" {
		o.format = "text"
		if strings.EqualFold(filepath.Ext(o.out), ".json") {
			o.format = "json"
		}
	}
	if o.format != "text" && o.format != "json" {
		return nil, usageError("unknown -format %q (want text or json; lockaudit render turns a JSON run into html, markdown or sarif)", o.format)
	}
	return o, nil
}

// password reads the password from -password-file or LOCKAUDIT_PASSWORD.
func (o *probeFlags) password(e *env) (string, error) {
	if o.passwordFile != "" {
		data, err := os.ReadFile(o.passwordFile)
		if err != nil {
			return "", usageError("-password-file: %v", err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		return strings.TrimSuffix(line, "\r"), nil
	}
	return e.Getenv("LOCKAUDIT_PASSWORD"), nil
}

// tlsConfig builds the TLS settings; verification is always on.
func (o *probeFlags) tlsConfig() (*tls.Config, error) {
	if !o.tls && o.tlsCA == "" && o.tlsCert == "" && o.tlsServer == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: o.tlsServer}
	if o.tlsCA != "" {
		pem, err := os.ReadFile(o.tlsCA)
		if err != nil {
			return nil, usageError("-tls-ca: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, usageError("-tls-ca %s: no PEM certificate in it", o.tlsCA)
		}
		cfg.RootCAs = pool
	}
	if o.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(o.tlsCert, o.tlsKey)
		if err != nil {
			return nil, usageError("-tls-cert/-tls-key: %v", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

func runProbe(ctx context.Context, e *env, args []string) error {
	o, err := parseProbeFlags(e, args)
	if o == nil || err != nil {
		return err
	}
	uses, err := probe.ParseUses(o.uses)
	if err != nil {
		return usageError("%v", err)
	}
	pw, err := o.password(e)
	if err != nil {
		return err
	}
	tlsCfg, err := o.tlsConfig()
	if err != nil {
		return err
	}
	var sentinels []string
	for _, s := range strings.Split(o.sentinel, ",") {
		if s = strings.TrimSpace(s); s != "" {
			sentinels = append(sentinels, s)
		}
	}
	run, err := probe.Run(ctx, probe.Options{
		Addrs: o.addrs, Sentinels: sentinels, Master: o.master,
		User: o.user, Password: pw, TLS: tlsCfg,
		Timeout: o.timeout, Deadline: o.deadline, Parallel: o.parallel,
		Uses: uses, Skew: o.skew, RESP2: o.resp2, Version: version(),
	})
	if err != nil {
		return usageError("%v", err)
	}

	// One text renderer (report/text.go) for every command.
	var buf bytes.Buffer
	if err := report.Render(&buf, run, o.format); err != nil {
		return failure("rendering %s: %v", o.format, err)
	}
	if o.out != "" {
		out := o.out
		if !filepath.IsAbs(out) {
			out = filepath.Join(e.Dir, out)
		}
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			return failure("%v", err)
		}
	} else if _, err := e.Stdout.Write(buf.Bytes()); err != nil {
		return failure("writing the report: %v", err)
	}
	if o.format != "text" || o.out != "" { // text on stdout shows them already
		for _, er := range run.Errors {
			fmt.Fprintf(e.Stderr, "lockaudit probe: %s %s\n", er.Where, er.Message)
		}
	}
	summary := report.Summary(run)
	if v := run.Verdict; v != nil {
		summary = fmt.Sprintf("release %s, extend %s, lua %s; %s", v.NativeRelease, v.NativeExtend, v.Lua, summary)
	}
	if o.out != "" {
		summary += "; report written to " + o.out
	}
	fmt.Fprintf(e.Stderr, "lockaudit probe: %s\n", summary)
	return exitWith(report.ExitCode(run))
}
