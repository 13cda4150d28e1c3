package probe

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/report"
)

// framingAttacks are replies no real server sends, each of which crashed,
// exhausted or fooled the probe before the framing check: the crashers of
// issue 8 and their relatives. Each is made when asked for (some are
// megabytes).
func framingAttacks() map[string]func() string {
	attacks := map[string]func() string{
		"deep-nesting":      deepNesting,
		"info-64MiB":        func() string { return "$67108864\r\n" + strings.Repeat("# Server\r\n", 1000) },
		"bulk-500MB":        func() string { return "$500000000\r\n" },
		"line-without-end":  func() string { return "+" + strings.Repeat("a", 200_000) },
		"unsolicited-reply": func() string { return "$4\r\nrole\r\n+EXTRA\r\n+EXTRA\r\n" },
		"push-message":      func() string { return ">3\r\n$9\r\nsubscribe\r\n$1\r\nc\r\n:1\r\n" },
		"attribute":         func() string { return "|1\r\n+ttl\r\n:1\r\n+OK\r\n" },
		"streamed-string":   func() string { return "$?\r\n;4\r\nrole\r\n;0\r\n" },
		"bad-boolean":       func() string { return "#\r\n" },
		"many-elements":     func() string { return strings.Repeat("*100000\r\n"+strings.Repeat(":1\r\n", 100_000), 6) },
		"truncated":         func() string { return "$100\r\nrole:master\r\n" + hangUp },
	}
	for name, data := range crashers {
		attacks[name] = func() string { return data }
	}
	return attacks
}

// TestProbeFramingAttacks sends each attack as a (fake) server's answer to
// a command of the node's batch (TIME, the first; INFO, the second) and to
// the handshake. The probe never panics and never believes the reply: the
// node is unknown with an LA208 naming it and the refusal (exit 4), or,
// when even the handshake was refused, the run fails naming the node (exit
// 1).
func TestProbeFramingAttacks(t *testing.T) {
	for name, mk := range framingAttacks() {
		attack := mk()
		want := "reply refused (framing check)"
		if name == "truncated" {
			want = "EOF"
		}
		for _, target := range []string{"TIME", "INFO"} {
			t.Run(name+"/batch-"+target, func(t *testing.T) {
				addr := startFake(t, withHello(func(cmd []string) []byte {
					switch cmd[0] {
					case target:
						return []byte(attack)
					case "INFO":
						return bulk("# Server\r\nvalkey_version:9.1.2\r\nserver_name:valkey\r\n")
					}
					return []byte("-ERR unexpected\r\n")
				}))
				run := probeRun(t, Options{Addrs: []string{addr}, Timeout: 2 * time.Second})
				wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
				n := nodeOf(t, run, addr)
				if got := rulesAt(run, addr); !slices.Contains(got, "LA208") {
					t.Errorf("findings %v, want LA208 on %s", got, addr)
				}
				if name == "unsolicited-reply" {
					// The batch is pipelined: the extra replies answer the
					// next commands, out of turn (a server can lie as well),
					// and the last ones are refused. Nothing may be read as
					// sound.
					if len(n.Errors) < len(batchFacts) {
						t.Errorf("node %+v, want every batch fact unread", n)
					}
					return
				}
				// What the connection carried before the refusal is not
				// believed either: not even the version.
				if n.Version != "" || len(n.Errors) != len(batchFacts) {
					t.Errorf("node %+v, want nothing read and one error per batch fact", n)
				}
				for _, e := range n.Errors {
					if !strings.Contains(e, want) {
						t.Errorf("error %q, want %q", e, want)
					}
				}
			})
		}
		t.Run(name+"/handshake", func(t *testing.T) {
			addr := startFake(t, func([]string) []byte { return []byte(attack) })
			run := probeRun(t, Options{Addrs: []string{addr}, Timeout: 2 * time.Second})
			wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)
			if len(run.Errors) != 1 || run.Errors[0].Where != addr || !strings.Contains(run.Errors[0].Message, want) {
				t.Errorf("run errors %+v, want one for %s: %s", run.Errors, addr, want)
			}
		})
	}
}

// TestProbeOverNodeLimit: a cluster that announces more members than the
// probe reads fails the run (exit 1) with an error naming the limit and
// the node that announced them; nothing is judged safe.
func TestProbeOverNodeLimit(t *testing.T) {
	for _, members := range []int{MaxNodes + 1, 3 * MaxNodes} {
		addr := startFake(t, withHello(fakeClusterNode(members)))
		run := probeRun(t, Options{Addrs: []string{addr}, Timeout: 5 * time.Second})
		if len(run.Errors) != 1 || run.Errors[0].Where != addr || !strings.Contains(run.Errors[0].Message, "more than 10000 members") ||
			!strings.Contains(run.Errors[0].Message, "lockaudit probes at most 10000 nodes") {
			t.Errorf("%d members: run errors %+v", members, run.Errors)
		}
		wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)
		if len(run.Nodes) != 1 {
			t.Errorf("%d members: %d nodes probed, want only the seed", members, len(run.Nodes))
		}
	}
}

// TestProbeOverNodeLimitByReplicas: past MaxNodes, discovery stops however
// the nodes are found (here a primary whose ROLE lists more replicas): the
// run fails naming the node that named too many, and that node's gap keeps
// every verdict from being good.
func TestProbeOverNodeLimitByReplicas(t *testing.T) {
	var role strings.Builder
	fmt.Fprintf(&role, "*3\r\n$6\r\nmaster\r\n:0\r\n*%d\r\n", MaxNodes+5)
	for i := range MaxNodes + 5 {
		ip := fmt.Sprintf("127.77.%d.%d", i/250%250, i%250+1)
		fmt.Fprintf(&role, "*3\r\n$%d\r\n%s\r\n$4\r\n6379\r\n$1\r\n0\r\n", len(ip), ip)
	}
	addr := startFake(t, withHello(func(cmd []string) []byte {
		switch strings.Join(cmd, " ") {
		case "INFO server":
			return bulk("# Server\r\nvalkey_version:9.1.2\r\nserver_name:valkey\r\nserver_mode:standalone\r\n")
		case "ROLE":
			return []byte(role.String())
		}
		return []byte("-ERR unknown command\r\n")
	}))
	// A short deadline: the replicas need not all be dialled to see the limit.
	run := probeRun(t, Options{Addrs: []string{addr}, Timeout: time.Second, Deadline: 2 * time.Second})
	if len(run.Errors) != 1 || run.Errors[0].Where != addr || !strings.Contains(run.Errors[0].Message, "more than 10000 nodes were found ("+addr+" named more)") {
		t.Errorf("run errors %+v", run.Errors)
	}
	if len(run.Nodes) != MaxNodes {
		t.Errorf("%d nodes in the report, want %d", len(run.Nodes), MaxNodes)
	}
	wantReason(t, run, "not every node that can become primary is known: primary "+addr+" (Valkey 9.1.2): 6 nodes it named were not probed")
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)
}
