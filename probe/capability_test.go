package probe

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/rules"
)

// TestCapabilitiesOnServers walks every (flavor, version, command) cell of
// the capability table that an installed server can answer: each lock
// command is sent to a real server of that release, and whether the
// server runs it must be what rules.Supports says.
func TestCapabilitiesOnServers(t *testing.T) {
	servertest.Require(t)
	// Each command, and the error replies that mean "this server has no
	// such command or option".
	try := map[rules.Feature][]string{
		rules.SetNXPX: {"SET", "cap:k", "v", "NX", "PX", "60000"},
		rules.SetIFEQ: {"SET", "cap:k", "v", "IFEQ", "v", "PX", "60000"},
		rules.DELIFEQ: {"DELIFEQ", "cap:k", "other"},
		rules.DELEX:   {"DELEX", "cap:k", "IFEQ", "other"},
		rules.Lua:     {"EVAL", "return 1", "0"},
		rules.WAITAOF: {"WAITAOF", "0", "0", "0"},
	}
	cells := 0
	for _, line := range servertest.All {
		t.Run(line, func(t *testing.T) {
			s := servertest.Start(t, servertest.Config{Version: line})
			v, err := rules.ParseVersion(rules.Flavor(s.Install.Flavor), s.Version)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rules.Features() {
				args, ok := try[f]
				if !ok {
					t.Fatalf("no command to try for %s: the table has a column this test does not walk", f)
				}
				reply, err := s.Raw(args...)
				if err != nil {
					t.Fatalf("%s: %v", strings.Join(args, " "), err)
				}
				has := reply.Kind != resp.Err
				if !has && !lacking(reply.Str) {
					t.Errorf("%s %s: %s: an error that says neither yes nor no", v, f, reply.Str)
				}
				if want := rules.Supports(v, f); has != want {
					t.Errorf("%s, %s: the server runs it: %t; the capability table says %t (%s)", v, f, has, want, reply)
				}
				cells++
			}
		})
	}
	if !t.Failed() && cells < len(servertest.All)*len(rules.Features()) {
		t.Errorf("%d cells walked", cells)
	}
}

// lacking reports whether an error reply means the server has no such
// command, or no such option.
func lacking(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "unknown command") || strings.Contains(m, "syntax error")
}
