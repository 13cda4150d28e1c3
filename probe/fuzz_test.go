package probe

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

var writeCorpus = flag.Bool("fuzzcorpus", false, "write the recorded replies and the crashers into testdata/fuzz as seed corpus")

// crashers are replies that crashed the probe inside valkey-go's reader
// before the framing check (issue 8): a negative length panics in
// makeslice, a huge one is a fatal out-of-memory. They are in the seed
// corpus of FuzzReplyPath (testdata/fuzz/FuzzReplyPath/crasher-*), and
// TestProbeFramingAttacks runs each through a whole probe.
var crashers = map[string]string{
	"negative-bulk":  "$-2\r\n",
	"negative-array": "*-2\r\n",
	"negative-map":   "%-3\r\n",
	"huge-bulk":      "$99999999999\r\n",
	"huge-array":     "*2000000000\r\n",
}

// deepNesting is the crasher that overflowed the stack: 3 million nested
// arrays (12 MB, so it is made when needed rather than checked in).
func deepNesting() string { return strings.Repeat("*1\r\n", 3_000_000) }

// TestWriteFuzzCorpus turns the recorded replies (and the crashers) into
// the checked-in seed corpus of the fuzz targets below:
//
//	go test ./probe -run TestWriteFuzzCorpus -fuzzcorpus
func TestWriteFuzzCorpus(t *testing.T) {
	if !*writeCorpus {
		t.Skip("run with -fuzzcorpus to regenerate testdata/fuzz from testdata/replies")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "replies", "*", "*", "*.resp"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded replies: %v", err)
	}
	for _, target := range []string{"FuzzReplyPath", "FuzzInfo", "FuzzClusterNodes"} {
		matches, _ := filepath.Glob(filepath.Join("testdata", "fuzz", target, "[rv]*")) // recorded seeds; found ones (gen-*, hashes) stay
		for _, m := range matches {
			os.Remove(m)
		}
	}
	for name, data := range crashers {
		writeSeed(t, "FuzzReplyPath", "crasher-"+name, []byte(data))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Join("testdata", "replies"), f)
		name := strings.NewReplacer("/", "_", ".resp", "").Replace(rel)
		writeSeed(t, "FuzzReplyPath", name, data)
		if v, err := resp.Parse(data); err == nil && v.Kind == resp.Str && strings.HasPrefix(filepath.Base(rel), "info-") {
			writeSeed(t, "FuzzInfo", name, []byte(v.Str))
		} else if err == nil && v.Kind == resp.Str && strings.Contains(rel, "cluster-nodes") {
			writeSeed(t, "FuzzClusterNodes", name, []byte(v.Str))
		}
	}
}

func writeSeed(t *testing.T, target, name string, data []byte) {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	arg := "[]byte(" + strconv.Quote(string(data)) + ")"
	if target != "FuzzReplyPath" {
		arg = "string(" + strconv.Quote(string(data)) + ")"
	}
	body := fmt.Sprintf("go test fuzz v1\n%s\n", arg)
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustDialable fails on an address the probe could not dial.
func mustDialable(t *testing.T, what, addr string) {
	if addr == "" {
		return
	}
	if CheckAddr(addr) != nil {
		t.Fatalf("%s: parsed address %q is not HOST:PORT", what, addr)
	}
}

// FuzzReplyPath sends arbitrary bytes, as a server's reply to INFO
// server, down the path every reply takes in a probe: the framing check on
// the connection, valkey-go's reader, the conversion into a resp.Value, and
// every parser. Nothing may panic (valkey-go's reader runs in its own
// goroutine: a panic there ends the process), hang, or believe a truncated
// reply: a reply the path accepts is a complete RESP reply. What the
// parsers accept must be well formed.
//
//	go test ./probe -run '^$' -fuzz FuzzReplyPath -fuzztime 60s
func FuzzReplyPath(f *testing.F) {
	f.Add([]byte(deepNesting()))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Every wait on the path is bounded (5s at most here): longer is a
		// hang, reported with its input.
		hang := time.AfterFunc(15*time.Second, func() { panic(fmt.Sprintf("the reply path hangs on %q", data)) })
		defer hang.Stop()
		v, err := replyThroughPath(t, data)
		if err != nil {
			return
		}
		if _, rerr := resp.Read(bufio.NewReader(bytes.NewReader(data))); rerr != nil {
			t.Fatalf("the path accepted %q as %s, but it is no complete reply: %v", data, v, rerr)
		}
		checkParsers(t, v)
	})
}

// replyThroughPath connects a dialer to a fake server over an in-memory
// pipe (nothing listens, nothing is dialled); the server answers the
// handshake, then sends data and hangs up.
func replyThroughPath(t *testing.T, data []byte) (resp.Value, error) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	go func() { // answer HELLO, then INFO server with data, and hang up
		defer server.Close()
		r := bufio.NewReader(server)
		for _, reply := range [][]byte{[]byte(helloReply), data} {
			if _, err := resp.Read(r); err != nil {
				return
			}
			if _, err := server.Write(reply); err != nil {
				return
			}
		}
	}()
	d := &dialer{timeout: 2 * time.Second, redact: redactor(""), limits: replyLimits,
		netDial: func(context.Context, string, string) (net.Conn, error) { return client, nil }}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := d.dial(ctx, "127.0.0.1:6379")
	if err != nil {
		t.Fatalf("handshake with the fake server: %v", err)
	}
	defer c.close()
	return c.send(ctx, "INFO", "server")
}

// checkParsers runs every reply parser on v: none may panic, and what they
// accept must be well formed.
func checkParsers(t *testing.T, v resp.Value) {
	_ = v.String()
	if ri, err := parseRole(v); err == nil {
		mustDialable(t, "ROLE", ri.primary)
		for _, r := range ri.replicas {
			mustDialable(t, "ROLE", r)
		}
	}
	if m, err := parseCommandInfo(v, commandInfo[2:]); err == nil && len(m) != len(commandInfo[2:]) {
		t.Fatalf("COMMAND INFO answered %d names, asked %d", len(m), len(commandInfo[2:]))
	}
	if tokens, found, err := parseSetConditions(v); err == nil && !found && len(tokens) > 0 {
		t.Fatal("SET conditions without SET docs")
	}
	parseConfig(v)
	parseTime(v)
	if shards, err := parseClusterShards(v, false); err == nil {
		for _, s := range shards {
			for _, n := range s.nodes {
				mustDialable(t, "CLUSTER SHARDS", n.addr)
			}
		}
	}
	if ranges, err := parseClusterSlots(v); err == nil {
		for _, r := range ranges {
			for _, a := range r.nodes {
				mustDialable(t, "CLUSTER SLOTS", a)
			}
		}
	}
	if entries, err := parseEntries(v); err == nil {
		for _, e := range entries {
			if a, ok := entryAddr(e); ok {
				mustDialable(t, "SENTINEL", a)
			}
		}
	}
	if s, err := infoText(v); err == nil {
		parseInfoServer(s)
		parseInfoReplication(s)
		parseInfoScripting(s)
		parseClusterNodes(s)
	}
}

// FuzzInfo feeds arbitrary INFO text to the INFO parsers.
func FuzzInfo(f *testing.F) {
	f.Add("# Server\r\nserver_name:valkey\r\nvalkey_version:9.1.2\r\n")
	f.Fuzz(func(t *testing.T, text string) {
		if si, err := parseInfoServer(text); err == nil && si.version.IsZero() {
			t.Fatal("INFO server accepted without a version")
		}
		if ri, err := parseInfoReplication(text); err == nil {
			mustDialable(t, "INFO replication", ri.primary)
			for _, r := range ri.replicas {
				mustDialable(t, "INFO replication", r)
			}
			if ri.role == RoleReplica && ri.primary == "" {
				t.Fatal("a replica without a primary was accepted")
			}
		}
		if sc, err := parseInfoScripting(text); err == nil && sc.engines < 0 {
			t.Fatal("negative engines_count accepted")
		}
	})
}

// FuzzClusterNodes feeds arbitrary text to the CLUSTER NODES parser.
func FuzzClusterNodes(f *testing.F) {
	f.Add("a 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-16383\n")
	f.Fuzz(func(t *testing.T, text string) {
		nodes, err := parseClusterNodes(text)
		if err != nil {
			return
		}
		for _, n := range nodes {
			mustDialable(t, "CLUSTER NODES", n.addr)
			if n.id == "" {
				t.Fatal("a node without an ID was accepted")
			}
		}
	})
}
