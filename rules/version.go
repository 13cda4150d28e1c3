package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a server release. Pre is a pre-release tag such as "rc2"; a
// pre-release sorts before its release.
type Version struct {
	Flavor              Flavor
	Major, Minor, Patch int
	Pre                 string
}

// IsZero reports whether v is the zero Version (no version known).
func (v Version) IsZero() bool { return v.Flavor == "" }

// String prints "valkey-9.1.2" (or "valkey-9.2.0-rc2").
func (v Version) String() string {
	if v.IsZero() {
		return "unknown"
	}
	return string(v.Flavor) + "-" + v.Number()
}

// Number prints the version without its flavor: "9.1.2".
func (v Version) Number() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	if v.Pre != "" {
		s += "-" + v.Pre
	}
	return s
}

// Line is the release line, "valkey-9.1".
func (v Version) Line() string { return fmt.Sprintf("%s-%d.%d", v.Flavor, v.Major, v.Minor) }

// Compare orders versions of the same flavor; it panics on different flavors
// because no order between them means anything.
func (v Version) Compare(o Version) int {
	if v.Flavor != o.Flavor {
		panic("rules: comparing " + v.String() + " with " + o.String())
	}
	for _, d := range [3]int{v.Major - o.Major, v.Minor - o.Minor, v.Patch - o.Patch} {
		if d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
	}
	switch {
	case v.Pre == o.Pre:
		return 0
	case v.Pre == "":
		return 1
	case o.Pre == "":
		return -1
	}
	return strings.Compare(v.Pre, o.Pre)
}

// AtLeast reports whether v is of o's flavor and not older than o.
func (v Version) AtLeast(o Version) bool { return v.Flavor == o.Flavor && v.Compare(o) >= 0 }

// ParseVersion parses "9.1.2", "9.0", "9.2.0-rc2" (or "9.2.0~rc2", as Debian
// spells it) for the given flavor.
func ParseVersion(f Flavor, s string) (Version, error) {
	if _, ok := capabilities[f]; !ok {
		return Version{}, fmt.Errorf("unknown server flavor %q (want %s)", f, flavorNames())
	}
	s = strings.TrimSpace(s)
	num, pre := s, ""
	if i := strings.IndexAny(s, "-~+"); i >= 0 {
		num, pre = s[:i], s[i+1:]
	}
	parts := strings.Split(num, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("malformed version %q (want MAJOR.MINOR[.PATCH])", s)
	}
	var n [3]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 || x > 9999 {
			return Version{}, fmt.Errorf("malformed version %q (want MAJOR.MINOR[.PATCH])", s)
		}
		n[i] = x
	}
	return Version{Flavor: f, Major: n[0], Minor: n[1], Patch: n[2], Pre: pre}, nil
}

// ParseTarget parses a -target value such as "valkey-9.0", "redis-8.4" or
// "valkey-9.1.2". The release line must be one lockaudit knows, so a typo
// does not silently change what LA112 reports.
func ParseTarget(s string) (Version, error) {
	fl, num, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "-")
	if !ok {
		return Version{}, fmt.Errorf("unknown target %q: want FLAVOR-VERSION, one of %s", s, strings.Join(KnownTargets(), ", "))
	}
	v, err := ParseVersion(Flavor(fl), num)
	if err != nil {
		return Version{}, fmt.Errorf("unknown target %q: %v", s, err)
	}
	if !knownLine(v) {
		return Version{}, fmt.Errorf("unknown target %q: known release lines are %s", s, strings.Join(KnownTargets(), ", "))
	}
	return v, nil
}

// ParseTargets parses release lines as -target and the config file's
// target list give them: each item may itself be a comma-separated list;
// items are trimmed and lower-cased, empty ones skipped, and the first
// unknown one is an error. It returns the versions and their normalized
// names, in order; no target at all is an error.
func ParseTargets(items ...string) ([]Version, []string, error) {
	var vs []Version
	var names []string
	for _, item := range items {
		for _, part := range strings.Split(item, ",") {
			part = strings.ToLower(strings.TrimSpace(part))
			if part == "" {
				continue
			}
			v, err := ParseTarget(part)
			if err != nil {
				return nil, nil, err
			}
			vs, names = append(vs, v), append(names, part)
		}
	}
	if len(vs) == 0 {
		return nil, nil, fmt.Errorf("no target given (want e.g. valkey-9.0, or valkey-8.1,valkey-9.0)")
	}
	return vs, names, nil
}
