package rules

import (
	"fmt"
	"slices"
	"strings"
)

// This file is the capability table: for each server flavor, the release
// lines lockaudit knows and the first release of the flavor with each lock
// command. It is the only place a command's first version is written:
// the probe's answers by version, its verdict's advice and plan, the
// analyzers' -target checks and suggested fixes, conform's steps and the
// declared fleets of preflight all read it (Since, Supports, Remedies).
// A flavor without lines (Dragonfly, KeyDB) has room in the table but no
// release lockaudit judges yet: every capability of it is unknown.

// Flavor is the server family: the native lock commands differ between them.
type Flavor string

const (
	Valkey    Flavor = "valkey"
	Redis     Flavor = "redis"
	Dragonfly Flavor = "dragonfly"
	KeyDB     Flavor = "keydb"
)

// Feature is a server capability a lock step needs, as messages name it.
type Feature string

const (
	SetNXPX     Feature = "SET NX PX"    // acquire with a lease
	SetIFEQ     Feature = "SET IFEQ"     // owner-checked extend
	DELIFEQ     Feature = "DELIFEQ"      // owner-checked release (Valkey)
	DELEX       Feature = "DELEX"        // owner-checked release, DELEX key IFEQ token
	Lua         Feature = "Lua"          // EVAL/FCALL with a Lua engine
	WAITAOF     Feature = "WAITAOF"      // wait for the write to reach the AOF
	LuaOptional Feature = "LUA-OPTIONAL" // from this release on, Lua can be absent (a module)
)

// flavorRow is one flavor of the table.
type flavorRow struct {
	title string
	// lines are the release lines -target and inventories accept, oldest
	// first.
	lines []string
	// since is the first release of the flavor with each feature; a
	// feature absent from it is in no release of the flavor.
	since map[Feature]string
}

// capabilities is the table. Sources: VALKEY-FACTS.md (Valkey's release
// notes and src/commands/*.json, Redis's commands/*.json and redis.io),
// checked against the servers .ci/install-servers installs by
// TestCapabilitiesOnServers (probe/capability_test.go).
var capabilities = map[Flavor]flavorRow{
	Valkey: {
		title: "Valkey",
		lines: []string{"7.2", "8.0", "8.1", "9.0", "9.1", "9.2"},
		since: map[Feature]string{
			SetNXPX:     "7.2.0",
			SetIFEQ:     "8.1.0",
			DELIFEQ:     "9.0.0",
			DELEX:       "9.2.0",
			Lua:         "7.2.0",
			LuaOptional: "9.1.0",
			WAITAOF:     "7.2.0",
		},
	},
	Redis: {
		title: "Redis",
		lines: []string{"6.0", "6.2", "7.0", "7.2", "7.4", "8.0", "8.2", "8.4", "8.6"},
		since: map[Feature]string{
			SetNXPX: "2.6.12",
			SetIFEQ: "8.4.0",
			DELEX:   "8.4.0",
			Lua:     "2.6.0",
			WAITAOF: "7.2.0",
		},
	},
	Dragonfly: {title: "Dragonfly"},
	KeyDB:     {title: "KeyDB"},
}

// flavorOrder is the table's flavors in the order messages list them.
var flavorOrder = []Flavor{Valkey, Redis, Dragonfly, KeyDB}

// firsts is capabilities' since, parsed once.
var firsts = func() map[Flavor]map[Feature]Version {
	out := map[Flavor]map[Feature]Version{}
	for fl, row := range capabilities {
		out[fl] = map[Feature]Version{}
		for f, s := range row.since {
			v, err := ParseVersion(fl, s)
			if err != nil {
				panic("rules: capability table: " + string(fl) + " " + string(f) + ": " + err.Error())
			}
			out[fl][f] = v
		}
	}
	return out
}()

// Title is the flavor's name in prose: "Valkey", "Redis".
func (f Flavor) Title() string {
	if row, ok := capabilities[f]; ok {
		return row.title
	}
	return string(f)
}

// Flavors lists the table's flavors, those with release lines first.
func Flavors() []Flavor { return append([]Flavor(nil), flavorOrder...) }

func flavorNames() string {
	var names []string
	for _, f := range flavorOrder {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// Features lists the lock commands of the table in the order of a lock's
// life: acquire, extend, release, Lua, durability.
func Features() []Feature {
	return []Feature{SetNXPX, SetIFEQ, DELIFEQ, DELEX, Lua, WAITAOF}
}

// Since returns the first release of the flavor with the feature; ok is false
// when no release of that flavor has it.
func Since(f Feature, fl Flavor) (Version, bool) {
	v, ok := firsts[fl][f]
	return v, ok
}

// Supports reports whether a server of version v has the feature, by version
// alone (the probe prefers COMMAND INFO/DOCS and falls back to this).
func Supports(v Version, f Feature) bool {
	min, ok := Since(f, v.Flavor)
	return ok && v.AtLeast(min)
}

// Requirement describes where a feature exists: "Valkey 9.0+, no Redis
// version", for messages.
func Requirement(f Feature) string {
	var parts []string
	for _, fl := range []Flavor{Valkey, Redis} {
		if v, ok := Since(f, fl); ok {
			parts = append(parts, fmt.Sprintf("%s %d.%d+", fl.Title(), v.Major, v.Minor))
		} else {
			parts = append(parts, "no "+fl.Title()+" version")
		}
	}
	return strings.Join(parts, ", ")
}

// Plus prints "Valkey 9.0+": the release line of v and later.
func (v Version) Plus() string { return fmt.Sprintf("%s %d.%d+", v.Flavor.Title(), v.Major, v.Minor) }

func knownLine(v Version) bool {
	return slices.Contains(capabilities[v.Flavor].lines, fmt.Sprintf("%d.%d", v.Major, v.Minor))
}

// KnownTargets lists the accepted release lines, "valkey-7.2" ... "redis-8.6".
func KnownTargets() []string {
	var out []string
	for _, f := range flavorOrder {
		for _, l := range capabilities[f].lines {
			out = append(out, string(f)+"-"+l)
		}
	}
	return out
}

// Lines lists every release line of the table, oldest first per flavor,
// as versions (patch 0).
func Lines() []Version {
	var out []Version
	for _, t := range KnownTargets() {
		v, err := ParseTarget(t)
		if err != nil {
			panic("rules: capability table: " + err.Error())
		}
		out = append(out, v)
	}
	return out
}

// The lock steps, and the features that do each natively: a server that
// lacks one of a step's features may have another.
var stepFeatures = [][]Feature{
	{DELIFEQ, DELEX}, // owner-checked release
	{SetIFEQ},        // owner-checked extend
}

// Remedy is one way to run a lock step on a server that lacks the feature
// the step needs: use another feature that does the same step (Use, when
// it differs from the feature lacked), after upgrading or moving to the
// release To (zero: the server already has Use). Its zero value is no
// remedy; LoadLua is giving the server a Lua engine.
type Remedy struct {
	Use     Feature
	To      Version
	LoadLua bool
}

// Upgrade reports whether the remedy changes the server's release within
// its flavor (false: no change, or a move to another flavor).
func (r Remedy) Upgrade(from Version) bool { return !r.To.IsZero() && r.To.Flavor == from.Flavor }

// Move reports whether the remedy moves the server to another flavor.
func (r Remedy) Move(from Version) bool { return !r.To.IsZero() && r.To.Flavor != from.Flavor }

// Remedies lists what works on a server of release v for a step that
// needs f, which v lacks, in the order to prefer them: another feature v
// has for the same step; an upgrade to the flavor's first release with f;
// an upgrade to an earlier release with another feature for the step
// (or any, when no release of the flavor has f); and, when the flavor
// has no release with f, a move to the first release of another flavor
// that has it. Redis remedies therefore never name DELIFEQ, and Valkey's
// before 9.2 name DELEX only for code that already releases with it. For
// Lua the remedies are a Lua engine, then the native steps v has. None
// when v has f (Lua aside: a release with Lua can lack its engine). A zero
// v (version unknown) gets the first release of every flavor with f.
func Remedies(v Version, f Feature) []Remedy {
	if f != Lua && Supports(v, f) {
		return nil
	}
	if f == Lua {
		out := []Remedy{{LoadLua: true}}
		for _, g := range []Feature{DELIFEQ, DELEX, SetIFEQ} {
			if Supports(v, g) {
				out = append(out, Remedy{Use: g})
			}
		}
		return out
	}
	if v.IsZero() {
		var out []Remedy
		for _, fl := range flavorOrder {
			if s, ok := Since(f, fl); ok {
				out = append(out, Remedy{Use: f, To: s})
			}
		}
		return out
	}
	var alts []Feature
	for _, step := range stepFeatures {
		if slices.Contains(step, f) {
			for _, g := range step {
				if g != f {
					alts = append(alts, g)
				}
			}
		}
	}
	var out []Remedy
	for _, g := range alts {
		if Supports(v, g) {
			out = append(out, Remedy{Use: g})
		}
	}
	own, hasOwn := Since(f, v.Flavor)
	if hasOwn {
		out = append(out, Remedy{Use: f, To: own})
	}
	for _, g := range alts {
		if s, ok := Since(g, v.Flavor); ok && !Supports(v, g) && (!hasOwn || s.Compare(own) < 0) {
			out = append(out, Remedy{Use: g, To: s})
		}
	}
	if !hasOwn {
		for _, fl := range flavorOrder {
			if s, ok := Since(f, fl); ok && fl != v.Flavor {
				out = append(out, Remedy{Use: f, To: s})
			}
		}
	}
	return out
}

// ReleaseFor is the native owner-checked release a server of version v
// has, DELIFEQ before DELEX (Valkey has had it longer); ok is false when
// it has neither.
func ReleaseFor(v Version) (Feature, bool) {
	for _, f := range stepFeatures[0] {
		if Supports(v, f) {
			return f, true
		}
	}
	return "", false
}
