package main

import (
	"context"
	"fmt"
	"net"
	"runtime/debug"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/watch"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules/config"
)

// defaultListen is where probe -watch serves without -listen: loopback
// only, so the report (which names the fleet's nodes) is not served to
// the network unless asked.
const defaultListen = "127.0.0.1:9187"

// watchFlags are probe -watch's own settings.
type watchFlags struct {
	interval   time.Duration
	listen     string
	allowHosts string
	failOn     string
}

// listenAddr resolves -listen: a bare port ("9187") is loopback's.
func listenAddr(s string) (string, error) {
	if !strings.Contains(s, ":") {
		s = "127.0.0.1:" + s
	}
	if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
		return "", fmt.Errorf("-listen %q is not HOST:PORT (e.g. %s; :9187 serves every interface)", s, defaultListen)
	}
	return s, nil
}

// watchProbe is probe -watch: it listens first (a taken address fails at
// once), then probes until ctx ends and shuts the server down.
func watchProbe(ctx context.Context, e *env, opts probe.Options, cfg *config.File, w watchFlags) error {
	l, err := net.Listen("tcp", w.listen)
	if err != nil {
		return failure("-listen %s: %v", w.listen, err)
	}
	if ta, ok := l.Addr().(*net.TCPAddr); ok && ta.IP.IsUnspecified() {
		fmt.Fprintf(e.Stderr, "lockaudit probe: warning: -listen %s serves every interface; the report names the fleet's nodes: bind an address only Prometheus reaches\n", w.listen)
	}
	revision := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	wt := watch.New(watch.Options{
		Interval: w.interval,
		Render:   render.Render,
		Probe: func(ctx context.Context) (*report.Run, error) {
			run, err := probe.Run(ctx, opts)
			if run != nil {
				applyRuleSettings(run, cfg)
				run.FailOn = w.failOn
			}
			return run, err
		},
		Logf: func(format string, args ...any) {
			// The messages carry servers' errors: escaped (report.Escape).
			fmt.Fprintf(e.Stderr, "lockaudit probe: %s %s\n", time.Now().Format(time.RFC3339), report.Escape(fmt.Sprintf(format, args...)))
		},
		Version:  version(),
		Revision: revision,
	})
	served := make(chan error, 1)
	go func() {
		served <- watch.Serve(ctx, l, wt.Handler(), watch.ServeOptions{Hosts: splitList(w.allowHosts)})
	}()
	fmt.Fprintf(e.Stderr, "lockaudit probe: serving http://%s/metrics and /report, probing every %s (Ctrl-C stops)\n", l.Addr(), w.interval)
	wt.Run(ctx)
	if err := <-served; err != nil {
		return failure("serving %s: %v", l.Addr(), err)
	}
	return nil
}
