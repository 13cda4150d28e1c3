package analyzers

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

func parse(t *testing.T, src string) *config.File {
	t.Helper()
	f, err := config.Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSelect(t *testing.T) {
	f := parse(t, "rules:\n  LA108: off\n  LA110: warning\n  LA201: off\n")
	all := len(rules.ByKind(rules.Code))
	for _, tc := range []struct {
		name string
		f    *config.File
		spec string
		want string // "+ID" must be in, "-ID" must be out; "#N" the size
	}{
		{"defaults", nil, "", "+LA100 +LA108 #" + itoa(all)},
		{"file off", f, "", "-LA108 +LA110 +LA100 #" + itoa(all-1)},
		{"flag list wins", f, "LA108,LA103", "+LA108 +LA103 +LA100 -LA110 #3"},
		{"flag glob", f, "LA10*", "+LA108 +LA100 +LA101 -LA110 #10"},
		{"flag edits the file's", f, "-LA103", "-LA103 -LA108 +LA110 #" + itoa(all-2)},
		{"flag re-enables", f, "-LA103,LA108", "-LA103 +LA108 #" + itoa(all-1)},
		{"LA100 off by name", f, "LA103,-LA100", "+LA103 -LA100 #1"},
		{"node rules ignored", nil, "LA2*", "+LA100 #1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := Select(tc.f, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range strings.Fields(tc.want) {
				switch w[0] {
				case '+':
					if !sel[w[1:]] {
						t.Errorf("%s not selected: %v", w[1:], IDs(sel))
					}
				case '-':
					if sel[w[1:]] {
						t.Errorf("%s selected: %v", w[1:], IDs(sel))
					}
				case '#':
					if itoa(len(sel)) != w[1:] {
						t.Errorf("%d rules selected, want %s: %v", len(sel), w[1:], IDs(sel))
					}
				}
			}
		})
	}
	if _, err := Select(nil, "LA103,LA999"); err == nil || !strings.Contains(err.Error(), "LA999") {
		t.Errorf("unknown rule: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
