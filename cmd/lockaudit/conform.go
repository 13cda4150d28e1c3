package main

import (
	"context"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe/conform"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules/config"
)

func init() {
	register(&command{
		Name:    "conform",
		Usage:   "conform -write-scratch-key [flags] HOST[:PORT]...\nconform -write-scratch-key [flags] -sentinel HOST[:PORT][,...] [-master NAME]",
		Summary: "Prove on staging that the native lock steps behave as documented (it WRITES scratch keys).",
		Doc: `conform is the only lockaudit command that writes, and it refuses to run
without -write-scratch-key. On each primary it runs the lock pattern
the code relies on, on scratch keys under -prefix (a random hash tag
below it): SET NX PX, MULTI SET NX + INCR fence and WAIT always; then,
for each command relied on (-uses, or the config file's probe.uses, else
the native path of the fleet's flavor: DELIFEQ and SET IFEQ on Valkey,
DELEX and SET IFEQ on Redis), its steps: SET IFEQ PX, SET IFEQ on a
missing key and the LA104 trap (SET IFEQ without PX, its TTL restored
in the same transaction); DELIFEQ, or DELEX IFEQ, with a stale and with the holder's
token; a Lua compare-and-delete. A command not relied on is skipped,
never failed; one the server lacks says what works there instead. It checks every reply against the documented one and, after
each write, reads the keys on every replica (GET, PTTL) to prove the
replicated effect. It prints a table per node: step, command, expected,
got. A step that differs, or a replica a failover can promote that lacks
a command relied on, is an LA213 finding. A step the server refuses for
another reason (NOPERM, MOVED, ASK, a node no longer primary) is not
tested (exit 4), never failed.

Every scratch key carries a TTL (-ttl, at most ` + conform.MaxTTL.String() + `) from the command that
creates it on — the LA104 trap restores its key's TTL in the same
transaction —, so a crash or a partition leaves nothing for longer; and
all are deleted at the end, also on an error, the deadline, Ctrl-C,
SIGTERM, SIGHUP or SIGQUIT. Its connections refuse any other command
and any key outside -prefix. A host without a port means port 6379
(26379 for -sentinel).`,
		Examples: `lockaudit conform -write-scratch-key 127.0.0.1:6380       # a staging node
lockaudit conform -write-scratch-key -sentinel 10.0.0.9 -master staging -o conform.html`,
		Exit: `0  every step as documented
1  no node could be reached
2  usage error
3  a step differs (LA213) (0 with -exit-zero)
4  a node could not be fully tested
130  interrupted (Ctrl-C); 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT: the
     scratch keys are deleted first, and no report is written`,
		Run: runConform,
	})
}

func runConform(ctx context.Context, e *env, args []string) error {
	if err := refusePasswordFlags(args); err != nil {
		return err
	}
	var (
		conn        connFlags
		rf          reportFlags
		meta        engagementFlags
		configPath  string
		exitZero    bool
		write       bool
		prefix      string
		ttl         time.Duration
		waitTimeout time.Duration
		uses        string
	)
	fs := newFlagSet(e, "conform")
	conn.register(fs)
	rf.register(fs)
	meta.registerEngagement(fs)
	registerExitZero(fs, &exitZero)
	fs.StringVar(&configPath, "config", "", "read defaults from `FILE` (default: the first "+config.FileName+" found walking up from the working directory)")
	fs.BoolVar(&write, "write-scratch-key", false, "allow conform to write its scratch keys (required: without it conform refuses to run)")
	fs.StringVar(&prefix, "prefix", conform.DefaultPrefix, "scratch keys start with this `PREFIX` (default: conform.prefix)")
	fs.DurationVar(&ttl, "ttl", conform.DefaultTTL, "TTL of every scratch key, so nothing outlives a crash: "+conform.MinTTL.String()+" to "+conform.MaxTTL.String()+" (default: conform.ttl)")
	fs.DurationVar(&waitTimeout, "wait-timeout", 0, "WAIT's timeout (default: a third of -timeout, at most 1s)")
	fs.StringVar(&uses, "uses", "", "what the code relies on: `LIST` of delifeq, delex, ifeq, lua: their steps run, the others are skipped (default: the config file's probe.uses, else assumed: the native path of the fleet's flavor)")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if !write {
		return usageError("conform writes scratch keys on every primary it finds; give -write-scratch-key to allow it (run it on staging, or grant its user only the scratch prefix: see docs/fleet-commands.md)")
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
	if cfg != nil {
		if !set["prefix"] && cfg.Conform.Prefix != "" {
			prefix = cfg.Conform.Prefix
		}
		if !set["ttl"] && cfg.Conform.TTL > 0 {
			ttl = cfg.Conform.TTL
		}
		if uses == "" && len(cfg.Probe.Uses) > 0 {
			uses = strings.Join(cfg.Probe.Uses, ",")
		}
	}
	relied, err := parseUses(uses)
	if err != nil {
		return err
	}
	if err := config.CheckScratchPrefix(prefix); err != nil {
		return usageError("-prefix: %v", err)
	}
	if ttl < conform.MinTTL || ttl > conform.MaxTTL {
		name := "-ttl"
		if !set["ttl"] {
			name = "the config file's conform.ttl"
		}
		return usageError("%s must be between %s and %s: long enough for the steps, short enough that a key a crash leaves behind soon expires", name, conform.MinTTL, conform.MaxTTL)
	}
	if waitTimeout < 0 || waitTimeout != 0 && waitTimeout >= conn.timeout {
		return usageError("-wait-timeout must be positive and shorter than -timeout (%s)", conn.timeout)
	}
	plan, err := rf.plan(e.Dir)
	if err != nil {
		return err
	}
	opts, err := conn.options(ctx, e, e.Dir)
	if err != nil {
		return err
	}
	opts.Uses = relied
	prog := newProgress(e, "conform", plan)
	prog.phase("discovering the fleet")
	opts.Progress = prog.nodes
	run, err := conform.Run(ctx, conform.Options{Probe: opts, Prefix: prefix, TTL: ttl, WaitTimeout: waitTimeout})
	prog.done()
	if err := stopped(ctx); err != nil {
		return err // interrupted: what was not read is no evidence, and no report is written
	}
	if err != nil {
		return usageError("%v", err)
	}
	applyRuleSettings(run, conn.config)
	run.Engagement = meta.engagement
	return writeReports(ctx, e, "conform", run, plan, render.Options{}, exitZero)
}
