package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/mod/modfile"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules/config"
)

// engagementFlags are what audit and preflight reports say about their
// engagement (-title, -client, -system, -environment, -author, -notes;
// defaults from the config file's report: section) and -since, the
// earlier run the report compares itself with.
type engagementFlags struct {
	title, client, system, environment, author string
	notes, since                               string
	drill                                      string
	fleet                                      fleetResults

	// Set by load.
	engagement *report.Engagement
	old        *report.Run
	drillRun   *report.Drill
}

// maxNotes bounds the notes file: notes are a few paragraphs, not a book.
const maxNotes = 1 << 20

func (f *engagementFlags) register(fs *flag.FlagSet) {
	f.registerEngagement(fs)
	fs.StringVar(&f.since, "since", "", "compare with an earlier JSON run (`OLD.json`): the reports show what was fixed, what is new, verdict changes and upgraded servers")
	fs.StringVar(&f.drill, "drill", "", "attach a failover drill's record (`DRILL.json`, written by lockaudit drill -o) to the report as evidence")
	fs.StringVar(&f.fleet.scan, "scan", "", "merge a lockaudit scan run (`SCAN.json`, written by lockaudit scan -o) into the report: its coverage and findings")
	fs.StringVar(&f.fleet.conform, "conform", "", "merge a lockaudit conform run (`CONFORM.json`, written by lockaudit conform -o) into the report: its table and findings")
}

// registerEngagement registers the engagement's flags only: scan and
// conform reports name the engagement, without -since or -drill.
func (f *engagementFlags) registerEngagement(fs *flag.FlagSet) {
	fs.StringVar(&f.title, "title", "", "the report's `title` (default: the config file's report.title, else \"Distributed-lock audit\")")
	fs.StringVar(&f.client, "client", "", "who the audit is for (`NAME`), shown in the report's header")
	fs.StringVar(&f.system, "system", "", "the system audited (`NAME`)")
	fs.StringVar(&f.environment, "environment", "", "the environment audited (`NAME`, e.g. production)")
	fs.StringVar(&f.author, "author", "", "who wrote the report (`NAME`)")
	fs.StringVar(&f.notes, "notes", "", "notes for the report: a Markdown `FILE`, shown safely (no raw HTML, links only to http, https and mailto)")
}

// load merges the flags with the config file's report: section (flags
// win), reads the notes and the -since run. Paths on the command line are
// relative to dir (-C). The config file's notes are a file in the config
// file's own folder (readConfigNotes): the repository under audit must not
// choose which of the machine's files goes into the report. Every error is
// a usage error, found before the long work starts.
func (f *engagementFlags) load(dir string, cfg *config.File) error {
	var rp config.Report
	if cfg != nil {
		rp = cfg.Report
	}
	en := &report.Engagement{
		Title: pick(f.title, rp.Title), Client: pick(f.client, rp.Client), System: pick(f.system, rp.System),
		Environment: pick(f.environment, rp.Environment), Author: pick(f.author, rp.Author),
		Reviewer: rp.Reviewer, Version: rp.Version,
	}
	for _, a := range rp.Assign {
		en.Assign = append(en.Assign, report.Assignment{Match: a.Match, Owner: a.Owner, Effort: a.Effort})
	}
	switch {
	case f.notes != "":
		text, err := readNotes(inDir(dir, f.notes))
		if err != nil {
			return usageError("-notes: %v", err)
		}
		en.Notes = text
	case rp.Notes != "":
		text, err := readConfigNotes(cfg.Path, rp.Notes)
		if err != nil {
			return usageError("config: %s: report.notes: %v", cfg.Path, err)
		}
		en.Notes = text
	}
	if !reflect.ValueOf(*en).IsZero() {
		f.engagement = en
	}
	if f.since != "" {
		path := f.since
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		old, err := readRun(path)
		if err != nil {
			return usageError("-since: %v", err)
		}
		f.old = old
	}
	if f.drill != "" {
		d, err := readDrill(dir, f.drill)
		if err != nil {
			return usageError("-drill: %v", err)
		}
		f.drillRun = d
	}
	return f.fleet.read(dir)
}

// readDrill reads a drill's saved run (relative paths from dir) and
// returns its record.
func readDrill(dir, path string) (*report.Drill, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	r, err := readRun(path)
	if err != nil {
		return nil, err
	}
	if r.Drill == nil {
		return nil, fmt.Errorf("%s is a %s run, not a drill's (write one with lockaudit drill -o DRILL.json)", path, r.Command)
	}
	return r.Drill, nil
}

func pick(flagValue, fileValue string) string {
	if flagValue != "" {
		return flagValue
	}
	return fileValue
}

// readNotes reads the notes file -notes names (the user named it: any
// regular file).
func readNotes(path string) (string, error) { return readNotesIn(path, os.Stat, os.Open) }

// readConfigNotes reads a config file's report.notes: a regular file inside
// the config file's folder. The config file is the audited repository's,
// so it may not reach out of it — no absolute path, no "..", no symbolic
// link that leads out (os.Root), so never /proc/self/environ or a
// device; -notes on the command line can name any file.
func readConfigNotes(cfgPath, name string) (string, error) {
	dir := filepath.Dir(cfgPath)
	switch {
	case filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return "", fmt.Errorf("%s is an absolute path: the config file's notes must be a file in its folder %s (give any other file with -notes)", name, dir)
	case !filepath.IsLocal(name):
		return "", fmt.Errorf("%s leads out of the config file's folder %s: the notes must be a file in it (give any other file with -notes)", name, dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	text, err := readNotesIn(name, root.Stat, root.Open)
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
		return "", fmt.Errorf("%s is a link that leads out of the config file's folder %s: the notes must be a file in it (give any other file with -notes)", name, dir)
	}
	return text, err
}

// readNotesIn reads a notes file through stat and open: a regular file
// (not a FIFO, device or folder), UTF-8 text of at most maxNotes bytes.
func readNotesIn(path string, stat func(string) (fs.FileInfo, error), open func(string) (*os.File, error)) (string, error) {
	fi, err := stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > maxNotes {
		return "", fmt.Errorf("%s is larger than %d KiB: notes are a few paragraphs", path, maxNotes>>10)
	}
	f, err := open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(fi, opened) {
		return "", fmt.Errorf("%s changed while it was read", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxNotes+1))
	if err != nil {
		return "", err
	}
	if len(data) > maxNotes {
		return "", fmt.Errorf("%s is larger than %d KiB: notes are a few paragraphs", path, maxNotes>>10)
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("%s is not UTF-8 text", path)
	}
	return string(data), nil
}

// readRun reads a saved JSON run strictly, within the saved-run limits
// (report.ReadRun).
func readRun(path string) (*report.Run, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := report.ReadRun(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return r, nil
}

// apply records the engagement, the audited code's source and the
// comparison in the run.
func (f *engagementFlags) apply(ctx context.Context, run *report.Run, dir string) {
	run.Engagement = f.engagement
	run.Source = sourceOf(ctx, dir)
	f.fleet.attach(run)
	if f.old != nil {
		report.CarryIDs(f.old, run)
		run.Since = report.Compare(f.old, run)
	}
	run.Drill = f.drillRun
}

// sourceOf identifies the code in dir: the module path of the go.mod above
// it and, in a git work tree, the commit checked out, its time and whether
// the module has uncommitted changes. What cannot be read is left out.
func sourceOf(ctx context.Context, dir string) *report.Source {
	s := &report.Source{}
	root := ""
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			s.Module, root = modfile.ModulePath(data), d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if root == "" {
		root = dir
	}
	if rev := git(ctx, root, "rev-parse", "--verify", "HEAD"); rev != "" {
		s.VCS, s.Revision = "git", rev
		if t, err := time.Parse(time.RFC3339, git(ctx, root, "log", "-1", "--format=%cI", "HEAD")); err == nil {
			s.Time = t.UTC().Format(time.RFC3339)
		}
		s.Modified = git(ctx, root, "status", "--porcelain", "--untracked-files=no", "--", ".") != ""
	}
	if *s == (report.Source{}) {
		return nil
	}
	return s
}

// git runs a read-only git command in dir and returns its trimmed output,
// "" on any failure (no git, not a work tree, a repository git refuses).
// The audited repository's own configuration must not run anything: no
// fsmonitor hook, no optional index writes.
func git(ctx context.Context, dir string, args ...string) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	full := append([]string{"-C", dir, "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "--no-optional-locks"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
