package probe

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

var writeCorpus = flag.Bool("fuzzcorpus", false, "write the recorded replies into testdata/fuzz as seed corpus")

// TestWriteFuzzCorpus turns the recorded replies into the checked-in seed
// corpus of the fuzz targets below:
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
	for _, target := range []string{"FuzzReplies", "FuzzInfo", "FuzzClusterNodes"} {
		os.RemoveAll(filepath.Join("testdata", "fuzz", target))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Join("testdata", "replies"), f)
		name := strings.NewReplacer("/", "_", ".resp", "").Replace(rel)
		writeSeed(t, "FuzzReplies", name, data)
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
	if target != "FuzzReplies" {
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

// FuzzReplies feeds arbitrary bytes through the RESP decoder and then every
// reply parser: none may panic, and what they accept must be well formed.
func FuzzReplies(f *testing.F) {
	f.Add([]byte("*2\r\n$10\r\n1796016150\r\n$6\r\n764000\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := resp.Parse(data)
		if err != nil {
			return
		}
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
	})
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
