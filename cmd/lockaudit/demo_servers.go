package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/rules"
)

// demoServer is a Valkey or Redis server binary the demo can start.
type demoServer struct {
	install localfleet.Install
	version rules.Version
	from    string // where it was found, for the output
}

func (s demoServer) String() string {
	return fmt.Sprintf("%s %s (%s)", s.version.Flavor.Title(), s.install.Version, s.from)
}

// serverVersionRE reads `valkey-server --version`: "Valkey server v=9.1.2
// sha=..." (Redis: "Redis server v=7.0.15 ...").
var serverVersionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(Valkey|Redis) server v=([0-9]+\.[0-9]+\.[0-9]+)`)
})

// findServers lists the servers the demo could start, in order of
// preference: those installed in $LOCKAUDIT_SERVERS (when set), every
// valkey-server and redis-server on PATH, then those .ci/install-servers
// installed in its cache. It also returns where it looked.
func findServers(ctx context.Context, e *env) (found []demoServer, looked []string) {
	seen := map[string]bool{}
	add := func(s demoServer) {
		key := s.install.Server
		if real, err := filepath.EvalSymlinks(key); err == nil {
			key = real
		}
		if !seen[key] {
			seen[key] = true
			found = append(found, s)
		}
	}
	installed := func(dir, what string) {
		looked = append(looked, what+" ("+dir+")")
		for _, line := range localfleet.All {
			in, err := localfleet.LookupIn(dir, line)
			if err != nil {
				continue
			}
			v, err := rules.ParseVersion(rules.Flavor(in.Flavor), in.Version)
			if err != nil {
				continue
			}
			add(demoServer{install: in, version: v, from: what + " " + filepath.Join(dir, line)})
		}
	}
	if dir := e.Getenv("LOCKAUDIT_SERVERS"); dir != "" {
		installed(dir, "$LOCKAUDIT_SERVERS")
	}
	looked = append(looked, "valkey-server and redis-server on PATH")
	for _, dir := range filepath.SplitList(e.Getenv("PATH")) {
		if dir == "" {
			continue
		}
		for _, name := range []string{"valkey-server", "redis-server"} {
			if runtime.GOOS == "windows" {
				name += ".exe"
			}
			path := filepath.Join(dir, name)
			if fi, err := os.Stat(path); err != nil || fi.IsDir() || (runtime.GOOS != "windows" && fi.Mode()&0o111 == 0) {
				continue
			}
			if s, ok := pathServer(ctx, path); ok {
				add(s)
			}
		}
	}
	if e.Getenv("LOCKAUDIT_SERVERS") == "" {
		installed(localfleet.DirFrom(e.Getenv), "the .ci/install-servers cache")
	}
	return found, looked
}

// pathServer asks a server binary for its version; ok is false when it
// does not answer as a Valkey or Redis server.
func pathServer(ctx context.Context, path string) (demoServer, bool) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return demoServer{}, false
	}
	m := serverVersionRE().FindStringSubmatch(strings.TrimSpace(string(out)))
	if m == nil {
		return demoServer{}, false
	}
	flavor := rules.Flavor(strings.ToLower(m[1]))
	v, err := rules.ParseVersion(flavor, m[2])
	if err != nil {
		return demoServer{}, false
	}
	cli := filepath.Join(filepath.Dir(path), strings.Replace(filepath.Base(path), "-server", "-cli", 1))
	in := localfleet.Install{
		Name:    v.Line(),
		Flavor:  string(flavor),
		Version: m[2],
		Server:  path,
		CLI:     cli,
	}
	return demoServer{install: in, version: v, from: "PATH: " + path}, true
}

// demoNode is one server of the demo's fleet and the part it plays.
type demoNode struct {
	server demoServer
	role   string
}

// pickFleet chooses the demo's fleet from the servers found: mid-upgrade
// — a primary and a replica on the newest Valkey that has DELIFEQ, and a
// promotable replica on an older Valkey 8.x that lacks it — when both
// kinds are there. With one kind only, a primary and a replica of it, and
// a note saying what the mid-upgrade story would need.
func pickFleet(found []demoServer) (fleet []demoNode, note string, ok bool) {
	var upgraded, old, other []demoServer
	for _, s := range found {
		switch {
		case s.version.Flavor == rules.Valkey && rules.Supports(s.version, rules.DELIFEQ):
			upgraded = append(upgraded, s)
		case s.version.Flavor == rules.Valkey && s.version.Major >= 8:
			old = append(old, s) // replicates from a 9.x primary
		default:
			other = append(other, s)
		}
	}
	newest := func(list []demoServer) demoServer {
		// Newest first; Valkey before Redis (versions of two flavors do
		// not compare).
		sort.SliceStable(list, func(i, j int) bool {
			a, b := list[i].version, list[j].version
			if a.Flavor != b.Flavor {
				return a.Flavor == rules.Valkey
			}
			return a.Compare(b) > 0
		})
		return list[0]
	}
	switch {
	case len(upgraded) > 0 && len(old) > 0:
		n, o := newest(upgraded), newest(old)
		return []demoNode{{n, "primary, upgraded"}, {n, "replica, upgraded"}, {o, "replica, not upgraded yet, promotable"}}, "", true
	case len(upgraded) > 0 || len(old) > 0 || len(other) > 0:
		var s demoServer
		switch {
		case len(upgraded) > 0:
			s = newest(upgraded)
			note = fmt.Sprintf("Only %s %s was found, so every node runs it and has DELIFEQ: nothing is mid-upgrade here.", s.version.Flavor.Title(), s.install.Version)
		case len(old) > 0:
			s = newest(old)
			note = fmt.Sprintf("Only %s %s was found: no node has DELIFEQ (%s) yet.", s.version.Flavor.Title(), s.install.Version, delifeqSince())
		default:
			s = newest(other)
			note = fmt.Sprintf("Only %s %s was found, which has no DELIFEQ.", s.version.Flavor.Title(), s.install.Version)
		}
		note += " For the mid-upgrade story put " + delifeqSince() + " and an older Valkey 8.x on PATH (or run .ci/install-servers in a clone), or run: lockaudit demo -offline"
		return []demoNode{{s, "primary"}, {s, "replica, promotable"}}, note, true
	}
	return nil, "", false
}

// delifeqSince is "Valkey 9.0+": the releases the demo's story needs.
func delifeqSince() string {
	v, _ := rules.Since(rules.DELIFEQ, rules.Valkey)
	return v.Plus()
}

// noServersHelp says how to get a server on the common systems, and
// offers the demo without one.
func noServersHelp(looked []string) string {
	return `the demo starts real Valkey servers on loopback, and none was found (looked in: ` + strings.Join(looked, "; ") + `).
Get one, then run lockaudit demo again:
  Debian 13 / Ubuntu 24.10+:  sudo apt-get install valkey-server
  macOS (Homebrew):           brew install valkey
  Fedora:                     sudo dnf install valkey
  In a clone of lockaudit:    .ci/install-servers   (Debian/Ubuntu; Valkey 8.0, 8.1, 9.1 and Redis 7.0, 8.6, no root needed)
With ` + delifeqSince() + ` and an older 8.x both on PATH the fleet is mid-upgrade, as in a rolling upgrade.
Or see the same story without any server, on a declared mid-upgrade fleet:
  lockaudit demo -offline`
}
