package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/golden"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/join"
	"github.com/lockaudit/lockaudit/rules"
)

// fixtures are saved runs the format tests render. Four are written by
// hand — an unsafe audit of a Sentinel fleet, a safe audit, a probe of a
// cluster with an unreachable node, a vet run — but their verdicts are
// not: TestFixturesJudged recomputes each with the real join from the
// fixture's own nodes and uses, and every fixture is read with
// report.DecodeRun, which refuses a run that contradicts itself. One is a
// real run: audit-example, `lockaudit audit` of the bundled example against
// a live Valkey 9.1 primary with a promotable 8.1 replica, saved by
// cmd/lockaudit's TestAuditFormatsAndRender -update (ports made stable).
var fixtures = []string{"audit-unsafe", "audit-safe", "probe-cluster", "vet-only", "audit-example"}

// handFixtures are the fixtures written by hand.
var handFixtures = fixtures[:4]

// fixturePath is where a fixture is kept: cmd/lockaudit saves the real run
// in its own testdata.
func fixturePath(name string) string {
	if name == "audit-example" {
		return filepath.Join("..", "cmd", "lockaudit", "testdata", name+".json")
	}
	return filepath.Join("testdata", name+".json")
}

// loadRun reads a fixture as `lockaudit render` does: strictly, and
// refused when it is not a run lockaudit could have written.
func loadRun(t *testing.T, name string) *report.Run {
	t.Helper()
	return readRun(t, fixturePath(name))
}

// readRun reads the saved run at path strictly, as render does.
func readRun(t *testing.T, path string) *report.Run {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.DecodeRun(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// TestFixturesJudged: the verdict of each hand-written fixture is the one
// the real join gives its nodes and uses, worded as every run words it
// (`go test ./report -update` rewrites the fixture with it).
func TestFixturesJudged(t *testing.T) {
	for _, name := range handFixtures {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(fixturePath(name))
			if err != nil {
				t.Fatal(err)
			}
			r, err := report.DecodeRun(data)
			if err != nil && !*golden.Update {
				t.Fatalf("%s.json: %v", name, err)
			}
			if r == nil { // -update: judge what the file holds
				if r, err = decodeLoose(data); err != nil {
					t.Fatal(err)
				}
			}
			if r.Verdict != nil {
				r.Verdict = judge(r)
			}
			golden.Check(t, fixturePath(name), render(t, r, "json"))
		})
	}
}

// decodeLoose reads a fixture being rewritten: its verdict is replaced,
// so only the rest must decode.
func decodeLoose(data []byte) (*report.Run, error) {
	i := bytes.Index(data, []byte(`"verdict":`))
	if i < 0 {
		return report.DecodeRun(data)
	}
	head := bytes.TrimRight(data[:i], " \n,")
	var r report.Run
	if err := json.Unmarshal(append(head, []byte("\n}\n")...), &r); err != nil {
		return nil, err
	}
	r.Verdict = report.NewVerdict()
	return &r, nil
}

// judge computes a run's verdict with the real join from its nodes and
// uses, each node's answers and promotability in the probe's words.
func judge(r *report.Run) *report.Verdict {
	fl := join.Fleet{Topology: r.Topology}
	for _, n := range r.Nodes {
		if n.Role == report.RoleSentinel {
			continue
		}
		ref := report.NodeRef{Addr: n.Addr, Role: n.Role}
		v, err := rules.ParseVersion(rules.Flavor(n.Server), n.Version)
		if err == nil {
			ref.Server, ref.Version = n.Server, n.Version
		}
		jn := join.Node{Ref: ref, Version: v, Promotable: n.Promotable, Promotion: promotion(n, r.Topology), Answers: map[rules.Command]join.Answer{}}
		for _, c := range rules.Commands() {
			jn.Answers[c] = join.Answer{Answer: n.Answer(c), Evidence: evidence(n, c)}
		}
		fl.Nodes = append(fl.Nodes, jn)
	}
	return join.Verdict(fl, r.Uses, r.Command == "audit" || r.Command == "preflight")
}

// unreachable is why a node could not be read, as a FactError's reason.
func unreachable(n report.Node) string {
	return strings.TrimPrefix(strings.Join(n.Errors, "; "), "connection: ")
}

// evidence says how a node's answer is known, as the probe words it.
func evidence(n report.Node, c rules.Command) string {
	a := n.Answer(c)
	if a == report.Unknown {
		return "not reachable: " + unreachable(n)
	}
	switch c {
	case rules.UseIFEQ:
		if a == report.Yes {
			return "COMMAND DOCS SET: condition tokens NX XX IFEQ"
		}
		return "COMMAND DOCS SET: condition tokens NX XX (no IFEQ)"
	case rules.UseLua:
		if a == report.Yes {
			return "INFO scriptingengines: Lua engine loaded"
		}
		return "INFO scriptingengines: engines_count:0, no Lua engine"
	}
	if a == report.Yes {
		return "COMMAND INFO " + c.Title() + ": present"
	}
	return "COMMAND INFO " + c.Title() + ": nil (unknown command)"
}

// promotion says why a node can become primary, as the probe words it.
func promotion(n report.Node, topology string) string {
	switch {
	case n.Promotable == report.PromotableUnknown:
		return "it could not be reached (" + unreachable(n) + ")"
	case n.Role == report.RolePrimary:
		return "it is a primary"
	case n.Promotable == report.PromotableManual:
		return "cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it"
	case topology == report.TopologyCluster:
		return "a cluster replica fails over automatically"
	case topology == report.TopologySentinel:
		p, err := strconv.Atoi(n.Config["replica-priority"])
		if err != nil {
			p = 100
		}
		if p == 0 {
			return "replica-priority 0: Sentinel never promotes it"
		}
		return "replica-priority " + strconv.Itoa(p) + ": Sentinel can promote it"
	}
	return "a replica can be promoted (REPLICAOF NO ONE or a failover tool)"
}

// goldenDoc compares a long document with its golden file.
func goldenDoc(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}
