package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/watch"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules/config"
)

// watchProbe is probe -watch: it listens first (a taken address fails at
// once), then probes until ctx ends and shuts the server down.
func watchProbe(ctx context.Context, e *env, opts probe.Options, cfg *config.File, interval time.Duration, listen string) error {
	l, err := net.Listen("tcp", listen)
	if err != nil {
		return failure("-listen %s: %v", listen, err)
	}
	w := watch.New(watch.Options{
		Interval: interval,
		Probe: func(ctx context.Context) (*report.Run, error) {
			run, err := probe.Run(ctx, opts)
			if run != nil {
				applyRuleSettings(run, cfg)
			}
			return run, err
		},
		Logf: func(format string, args ...any) {
			// The messages carry servers' errors: escaped (report.Escape).
			fmt.Fprintf(e.Stderr, "lockaudit probe: %s %s\n", time.Now().Format(time.RFC3339), report.Escape(fmt.Sprintf(format, args...)))
		},
	})
	srv := &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	fmt.Fprintf(e.Stderr, "lockaudit probe: serving http://%s/metrics and /report, probing every %s (Ctrl-C stops)\n", l.Addr(), interval)
	w.Run(ctx)
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	srv.Shutdown(shut)
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return failure("serving %s: %v", l.Addr(), err)
	}
	return nil
}
