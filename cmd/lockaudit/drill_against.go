package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/lockaudit/lockaudit/internal/secret"
	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/drill"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

// drillAgainst plays the race on a staging Sentinel fleet (see drill's
// Doc): only with the flag that names what it does, and only on a
// Sentinel that monitors nothing but -master.
func drillAgainst(ctx context.Context, e *env, addr, master string, force bool, plan *outPlan) error {
	if !force {
		return usageError("-against forces a failover of the staging primary and writes scratch keys on it: give -force-failover-and-write-scratch-keys to allow it (never on production)")
	}
	if master == "" {
		return usageError("-against needs -master NAME: the one primary the Sentinel may monitor")
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(addr, "26379")
	}
	if err := probe.CheckAddr(addr); err != nil {
		return usageError("-against: %v", err)
	}
	dir, err := os.MkdirTemp("", "lockaudit-drill-")
	if err != nil {
		return failure("%v", err)
	}
	defer os.RemoveAll(dir)
	out := e.Stdout
	fmt.Fprintf(out, "Failover drill against the staging fleet %s (primary %s): a forced failover and scratch keys.\n\n", addr, master)
	d, err := drill.Against(ctx, drill.AgainstOptions{
		Sentinel: addr, Master: master, Password: e.Getenv(secret.Env), Dir: dir,
		Event: func(_ string, ev report.DrillEvent) { fmt.Fprintln(out, render.DrillEventLine(ev)) },
	})
	if err := stopped(ctx); err != nil {
		return err
	}
	if errors.Is(err, drill.ErrMorePrimaries) {
		return usageError("-against: %v: give a Sentinel of the staging fleet alone", err)
	}
	if err != nil {
		return failure("%v", err)
	}
	return drillFinish(ctx, e, d, plan)
}
