package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe/scan"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules/config"
)

func init() {
	register(&command{
		Name:    "scan",
		Usage:   "scan [flags] HOST[:PORT]...\nscan [flags] -sentinel HOST[:PORT][,...] [-master NAME]",
		Summary: "Find lock keys already broken on a live fleet (read-only): no TTL, or a lease too long.",
		Doc: `scan discovers the fleet as probe does, then SCANs each primary's data
(from a replica whose replication link is up when there is one, so the
primary carries no load) for keys matching the lock-key patterns
(lock_keys in .lockaudit.yaml, the same patterns as LA103). It reports
lock keys with no TTL (LA211: the lock is held forever) and, with
-max-lease, lock keys whose TTL is longer (LA212), each with its type,
its value's length (never the value) and its idle time.

It reads every database INFO keyspace lists (SELECT on each), and reports
each database's coverage. A fleet whose members it cannot all see (a
cluster whose member list the scan user may not read) is reported
incomplete (exit 4), naming the missing fact and the permission that
gives it, as probe does.

It sends only SCAN, DBSIZE, PTTL, TYPE, STRLEN, OBJECT IDLETIME, INFO
keyspace, SELECT, ROLE, READONLY and CLIENT NO-TOUCH after the probe's
read-only discovery: it never writes. -rate bounds the keys read per second on each node and
-count the work of each SCAN call; -deadline bounds the whole scan.
Memory does not grow with the keyspace. A host without a port means
port 6379 (26379 for -sentinel).`,
		Examples: `lockaudit scan 10.0.0.1                          # any node; port 6379
lockaudit scan -max-lease 10m -rate 10000 10.0.0.5:7000
lockaudit scan -sentinel 10.0.0.9 -master orders -o scan.html`,
		Exit: `0  nothing found
1  no node could be reached
2  usage error
3  a lock key without a TTL (LA211) (0 with -exit-zero)
4  a shard or database not read to the end (deadline, unreachable), or
   members of the fleet not all known`,
		Run: runScan,
	})
}

// Scan's own defaults (the probe's -deadline default is for one probe).
const scanDeadline = time.Hour

func runScan(ctx context.Context, e *env, args []string) error {
	if err := refusePasswordFlags(args); err != nil {
		return err
	}
	var (
		conn       connFlags
		rf         reportFlags
		meta       engagementFlags
		configPath string
		exitZero   bool
		maxLease   time.Duration
		rate       int
		count      int
		limit      int
	)
	fs := newFlagSet(e, "scan")
	conn.register(fs)
	rf.register(fs)
	meta.registerEngagement(fs)
	registerExitZero(fs, &exitZero)
	fs.StringVar(&configPath, "config", "", "read defaults from `FILE` (default: the first "+config.FileName+" found walking up from the working directory)")
	fs.DurationVar(&maxLease, "max-lease", 0, "report lock keys whose TTL is longer than this (LA212; default: scan.max_lease, else not checked)")
	fs.IntVar(&rate, "rate", scan.DefaultRate, "keys read per second on each node; 0: no limit (default: scan.rate)")
	fs.IntVar(&count, "count", scan.DefaultCount, "SCAN's COUNT: keys each call examines (default: scan.count)")
	fs.IntVar(&limit, "limit", scan.DefaultLimit, fmt.Sprintf("findings listed (at most %d); more are counted", scan.MaxLimit))
	setDefault(fs, "deadline", scanDeadline.String(), "the whole scan, discovery included; shards not read by then are reported incomplete")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	cfg, err := loadConfig(e.Dir, configPath)
	if err != nil {
		return err
	}
	if err := meta.load(e.Dir, cfg); err != nil {
		return err
	}
	set := flagsSet(fs)
	if err := conn.resolve(fs, cfg, fs.Args(), "HOST:PORT arguments"); err != nil {
		return err
	}
	deadline := scanDeadline
	if set["deadline"] {
		deadline = conn.deadline
	}
	if cfg != nil {
		if !set["max-lease"] && cfg.Scan.MaxLease > 0 {
			maxLease = cfg.Scan.MaxLease
		}
		if !set["rate"] && cfg.Scan.Rate > 0 {
			rate = cfg.Scan.Rate
		}
		if !set["count"] && cfg.Scan.Count > 0 {
			count = cfg.Scan.Count
		}
	}
	switch {
	case maxLease < 0:
		return usageError("-max-lease must be positive")
	case rate < 0:
		return usageError("-rate must be 0 (no limit) or more keys per second")
	case count < 1:
		return usageError("-count must be at least 1")
	case limit < 1 || limit > scan.MaxLimit:
		return usageError("-limit must be between 1 and %d (more findings are counted, not listed)", scan.MaxLimit)
	}
	patterns, match, err := cfg.LockKeyPatterns()
	if err != nil {
		return usageError("lock_keys: %v", err)
	}
	plan, err := rf.plan(e.Dir)
	if err != nil {
		return err
	}
	opts, err := conn.options(ctx, e, e.Dir)
	if err != nil {
		return err
	}
	// -deadline is the scan's; discovery keeps the probe's (the config
	// file's probe.deadline, else the default), bounded by the scan's.
	opts.Deadline = 0
	if cfg != nil && !set["deadline"] {
		opts.Deadline = cfg.Probe.Deadline
	}
	prog := newProgress(e, "scan", plan)
	prog.phase("discovering the fleet")
	opts.Progress = prog.nodes
	run, err := scan.Run(ctx, scan.Options{
		Probe: opts, Patterns: patterns, Match: match, MaxLease: maxLease,
		Rate: rate, Count: count, Deadline: deadline, Limit: limit,
		Progress: prog.scanned,
	})
	prog.done()
	if err := stopped(ctx); err != nil {
		return err // interrupted: what was not read is no evidence, and no report is written
	}
	if err != nil {
		return usageError("%v", err)
	}
	applyRuleSettings(run, conn.config)
	run.Engagement = meta.engagement
	return writeReports(ctx, e, "scan", run, plan, render.Options{}, exitZero)
}

// flagsSet lists the flags given on the command line.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// setDefault gives a shared flag another default (and help) in one command.
func setDefault(fs *flag.FlagSet, name, value, usage string) {
	f := fs.Lookup(name)
	if err := f.Value.Set(value); err != nil {
		panic(err) // a default written in this file
	}
	f.DefValue, f.Usage = value, usage
}

// scanned is a scan.Options.Progress hook: the line shows a bar over the
// keys the scanned nodes hold (DBSIZE). The ticker redraws it.
func (p *progress) scanned(s scan.Progress) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msg = scanLine(s)
}

func scanLine(s scan.Progress) string {
	const width = 20
	frac := 0.0
	if s.Total > 0 {
		frac = min(float64(s.Keys)/float64(s.Total), 1)
	}
	n := int(frac * width)
	bar := "[" + strings.Repeat("#", n) + strings.Repeat("-", width-n) + "]"
	return fmt.Sprintf("scanning %s %3.0f%% %d of %d keys, %d of %d shards done, %s", bar, frac*100, s.Keys, s.Total, s.Done, s.Shards, report.Plural(s.Findings, "finding"))
}
