package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// runProbeCLI runs `lockaudit probe args...` in-process with the given
// environment variables (and no others).
func runProbeCLI(t *testing.T, envv map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string { return envv[k] }
	code = run(servertest.Loopback(t), append([]string{"probe"}, args...), &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv, Dir: t.TempDir()})
	if testing.Verbose() {
		t.Logf("lockaudit probe %s -> exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String(), errb.String(), code
}

func TestProbeUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "no address to probe"},
		{[]string{"-uses", "delifeq,evalsha", "127.0.0.1:6379"}, `-uses: unknown command "evalsha" (want delifeq, delex, ifeq or lua)`},
		{[]string{"-format", "xml", "127.0.0.1:6379"}, `unknown -format "xml"`},
		{[]string{"-format", "text", "-o", "p.html", "127.0.0.1:6379"}, "-o p.html: the extension says html, but -format says text"},
		{[]string{"-password", "hunter2-secret", "127.0.0.1:6379"}, "LOCKAUDIT_PASSWORD"},
		{[]string{"--password=hunter2-secret", "127.0.0.1:6379"}, "-password-file"},
		{[]string{"-a", "hunter2-secret", "127.0.0.1:6379"}, "LOCKAUDIT_PASSWORD"},
		{[]string{"redis://:hunter2-secret@127.0.0.1:6379"}, "looks like a URL"},
		{[]string{"127.0.0.1:x"}, `"127.0.0.1:x" is not HOST:PORT`},
		{[]string{"-master", "mymaster", "127.0.0.1:6379"}, "-master needs -sentinel"},
		{[]string{"-tls-cert", "c.pem", "127.0.0.1:6379"}, "-tls-cert and -tls-key go together"},
		{[]string{"-tls-ca", "/nonexistent/ca.pem", "127.0.0.1:6379"}, "-tls-ca"},
		{[]string{"-parallel", "0", "127.0.0.1:6379"}, "-parallel must be at least 1"},
		{[]string{"-password-file", "/nonexistent/pw", "127.0.0.1:6379"}, "-password-file"},
		{[]string{"-nosuchflag", "127.0.0.1:6379"}, "flag provided but not defined"},
		{[]string{"127.0.0.1:6379", "-format", "yaml"}, `unknown -format "yaml"`}, // a flag after the address is read
		{[]string{"--", "-x"}, "-x is not an address"},
	} {
		stdout, stderr, code := runProbeCLI(t, nil, tt.args...)
		if code != report.ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("probe %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
		if strings.Contains(stdout+stderr, "hunter2-secret") {
			t.Errorf("probe %q echoed the password:\n%s%s", tt.args, stdout, stderr)
		}
	}
}

func TestProbeCLIUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	stdout, stderr, code := runProbeCLI(t, nil, "-timeout", "1s", addr)
	if code != report.ExitFailed {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr, addr) || !strings.Contains(stderr, "connection refused") {
		t.Errorf("stderr does not name the node and the reason:\n%s", stderr)
	}
	if !strings.Contains(stdout, "UNKNOWN") {
		t.Errorf("stdout does not show the unknown verdict:\n%s", stdout)
	}
}

func TestProbeCLIText(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	stdout, stderr, code := runProbeCLI(t, nil, n[0].Addr)
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3", code)
	}
	// No code was analysed and no -uses given: the uses are assumed, and
	// every line says so; the probe's time is on the topology line.
	if strings.Contains(stdout, "The code relies on") || strings.Contains(stdout, "your code relies on") {
		t.Errorf("a probe without code speaks as if the code had been read:\n%s", stdout)
	}
	for _, want := range []string{
		"Topology: replication (1 primary, 1 replica), read 20",
		"Assumed (no code analysed, no -uses): the code relies on delifeq, ifeq, the native path of the fleet's flavor.",
		"| ADDRESS ", "| KEY CONFIG ",
		"| " + n[0].Addr, "| Valkey 9.1.2 ", "| Valkey 8.1.1 ",
		"LA201 error   " + n[1].Addr + "  A promotable node lacks the native release command: replica " + n[1].Addr + " (Valkey 8.1.1, promotable) has no DELIFEQ",
		"Native release (DELIFEQ): UNSAFE (assumed relied on (no code analysed))",
		"    - replica " + n[1].Addr + " (Valkey 8.1.1, promotable) has no DELIFEQ",
		"Native extend (SET IFEQ): SAFE (assumed relied on (no code analysed))",
		"Lua scripts: AVAILABLE",
		"Exit status 3:",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("text output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "lockaudit probe: release unsafe, extend safe, lua available;") {
		t.Errorf("stderr summary: %q", stderr)
	}
	// Relying on Lua only, the same fleet passes.
	_, _, code = runProbeCLI(t, nil, "-uses", "lua", n[0].Addr)
	if code != 0 {
		t.Errorf("-uses lua: exit %d, want 0", code)
	}
}

// TestProbeCLIJSON checks the JSON shape the README documents.
func TestProbeCLIJSON(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	out := filepath.Join(t.TempDir(), "run.json")
	stdout, _, code := runProbeCLI(t, nil, "-o", out, n[1].Addr)
	if code != 0 || stdout != "" {
		t.Errorf("exit %d, stdout %q; want 0 and nothing on stdout", code, stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	if doc["topology"] != "replication" || doc["command"] != "probe" {
		t.Errorf("topology %v, command %v", doc["topology"], doc["command"])
	}
	nodes := doc["nodes"].([]any)
	if len(nodes) != 2 {
		t.Fatalf("%d nodes", len(nodes))
	}
	node := nodes[0].(map[string]any)
	for _, k := range []string{"addr", "role", "promotable", "server", "version", "lua", "delifeq", "delex", "set_ifeq", "config", "errors", "evidence"} {
		if _, ok := node[k]; !ok {
			t.Errorf("node lacks %q: %v", k, keys(node))
		}
	}
	if node["role"] != "primary" || node["promotable"] != "yes" || node["delifeq"] != "yes" || node["set_ifeq"] != "yes" || node["server"] != "valkey" {
		t.Errorf("primary node: %v", node)
	}
	if cfg := node["config"].(map[string]any); cfg["appendonly"] != "no" {
		t.Errorf("config: %v", cfg)
	}
	verdict := doc["verdict"].(map[string]any)
	if verdict["native_release"] != "safe" || verdict["native_extend"] != "safe" || verdict["lua"] != "available" {
		t.Errorf("verdict: %v", verdict)
	}
	// Both servers run with appendonly no (LA205), and the primary has a
	// replica and min-replicas-to-write 0 (LA204); maxmemory is 0 (no LA206).
	findings := doc["findings"].([]any)
	var pairs []string
	for _, x := range findings {
		f := x.(map[string]any)
		if got := keys(f); !slices.Equal(got, []string{"id", "message", "node", "risk", "rule", "severity"}) {
			t.Errorf("finding keys %v", got)
		}
		pairs = append(pairs, fmt.Sprint(f["node"], " ", f["rule"]))
	}
	sort.Strings(pairs)
	want := []string{n[0].Addr + " LA204", n[0].Addr + " LA205", n[1].Addr + " LA205"}
	sort.Strings(want)
	if !slices.Equal(pairs, want) {
		t.Errorf("findings %v, want exactly %v", pairs, want)
	}
}

// TestProbeCLINeverPrintsSecrets sets requirepass and masterauth to a
// distinctive string on every node (and Sentinel) and checks that it
// appears in no output of any format, right password or wrong.
func TestProbeCLINeverPrintsSecrets(t *testing.T) {
	const secret = "Zq7-lockaudit-secret-4e1f"
	const wrong = "Zq7-lockaudit-wrong-9b2c"
	cfg := servertest.Config{Password: secret}
	n := servertest.StartReplication(t, servertest.Node{Config: cfg}, servertest.Node{Config: cfg, Of: 0})
	ss := servertest.StartSentinels(t, n[0], "mymaster", 1, 1, cfg)
	if got := n[1].Do(t, "CONFIG", "GET", "masterauth"); !strings.Contains(got, secret) {
		t.Fatalf("test setup: masterauth is %q", got) // the secret is there to be leaked
	}
	pwFile := filepath.Join(t.TempDir(), "pw")
	wrongFile := filepath.Join(t.TempDir(), "wrong")
	os.WriteFile(pwFile, []byte(secret+"\n"), 0o600)
	os.WriteFile(wrongFile, []byte(wrong+"\n"), 0o600)

	check := func(name, output string) {
		t.Helper()
		if strings.Contains(output, secret) || strings.Contains(output, wrong) {
			t.Errorf("%s: output contains the password:\n%s", name, output)
		}
	}
	for _, format := range []string{"text", "json"} {
		stdout, stderr, code := runProbeCLI(t, map[string]string{"LOCKAUDIT_PASSWORD": secret}, "-format", format, "-sentinel", ss[0].Addr, "-master", "mymaster")
		if code != 0 {
			t.Errorf("%s with the right password: exit %d\n%s%s", format, code, stdout, stderr)
		}
		check(format+" env", stdout+stderr)
		stdout, stderr, _ = runProbeCLI(t, nil, "-format", format, "-password-file", pwFile, n[0].Addr)
		check(format+" password file", stdout+stderr)
		stdout, stderr, code = runProbeCLI(t, nil, "-format", format, "-password-file", wrongFile, n[0].Addr, ss[0].Addr)
		if code != report.ExitFailed {
			t.Errorf("%s with a wrong password: exit %d, want 1", format, code)
		}
		check(format+" wrong password", stdout+stderr)
	}
	out := filepath.Join(t.TempDir(), "report.json")
	runProbeCLI(t, map[string]string{"LOCKAUDIT_PASSWORD": secret}, "-o", out, n[0].Addr)
	data, _ := os.ReadFile(out)
	check("report file", string(data))
	if !strings.Contains(string(data), `"native_release": "safe"`) {
		t.Errorf("the report file does not hold a complete run:\n%s", data)
	}
}

// TestProbeConfigDefaults: probe reads its defaults from the config file's
// probe: section (found walking up from the working directory), relative
// paths in it are relative to the file, and flags win.
func TestProbeConfigDefaults(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	sub := filepath.Join(dir, "svc", "deep")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(dir, ".lockaudit.yaml"), []byte("probe:\n  addrs: ["+addr+"]\n  timeout: 1s\n  password_file: secret\n  uses: [lua]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret"), []byte("pw\n"), 0o600)
	var out, errb bytes.Buffer
	code := run(servertest.Loopback(t), []string{"probe", "-format", "json"}, &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: sub})
	if code != report.ExitFailed || !strings.Contains(errb.String(), addr) {
		t.Fatalf("probe with the file's addrs: exit %d, stderr %s", code, errb.String())
	}
	var r report.Run
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Uses) != 1 || r.Uses[0].Command != rules.UseLua {
		t.Errorf("uses %v, want the file's [lua]", r.Uses)
	}
	// A missing password file named by the config is an error about that
	// file (relative to the config file, not the working directory).
	os.Remove(filepath.Join(dir, "secret"))
	errb.Reset()
	code = run(servertest.Loopback(t), []string{"probe"}, &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: sub})
	if code != report.ExitUsage || !strings.Contains(errb.String(), filepath.Join(dir, "secret")) {
		t.Errorf("missing password file: exit %d, stderr %s", code, errb.String())
	}
	// Flags win: -uses, and an address on the command line replaces the file's.
	os.WriteFile(filepath.Join(dir, "secret"), []byte("pw\n"), 0o600)
	out.Reset()
	errb.Reset()
	code = run(servertest.Loopback(t), []string{"probe", "-format", "json", "-uses", "delifeq", "-timeout", "1s", "127.0.0.1:1"}, &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: sub})
	if strings.Contains(out.String()+errb.String(), addr) || !strings.Contains(errb.String(), "127.0.0.1:1") {
		t.Errorf("a command-line address did not replace the file's (exit %d):\n%s%s", code, out.String(), errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.Uses) != 1 || r.Uses[0].Command != rules.UseDELIFEQ {
		t.Errorf("-uses did not win over the file: %v %v", r.Uses, err)
	}
	// A bad config file is a usage error naming the file and the key.
	os.WriteFile(filepath.Join(dir, ".lockaudit.yaml"), []byte("probe:\n  timeout: soon\n"), 0o644)
	errb.Reset()
	code = run(servertest.Loopback(t), []string{"probe", "127.0.0.1:1"}, &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: sub})
	if code != report.ExitUsage || !strings.Contains(errb.String(), ".lockaudit.yaml:2") || !strings.Contains(errb.String(), "probe.timeout") {
		t.Errorf("bad config: exit %d, stderr %s", code, errb.String())
	}
}

// TestProbeConfigRuleSettings: the config file's rules: key applies to
// node rules too. Turning LA201 off drops its finding but not the UNSAFE
// release verdict behind it (exit 3 still); a severity set in the file
// (by rule name) replaces the catalog's on the node findings.
func TestProbeConfigRuleSettings(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	probeJSON := func(config string) (*report.Run, int) {
		t.Helper()
		dir := t.TempDir()
		if config != "" {
			if err := os.WriteFile(filepath.Join(dir, ".lockaudit.yaml"), []byte(config), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		stdout, stderr, code := runIn(t, dir, nil, "probe", "-format", "json", n[0].Addr)
		var r report.Run
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("exit %d: %v\n%s", code, err, stderr)
		}
		return &r, code
	}
	severities := func(r *report.Run) map[string]rules.Severity {
		out := map[string]rules.Severity{}
		for _, f := range r.Findings {
			out[string(f.Rule)] = f.Severity
		}
		return out
	}
	base, code := probeJSON("")
	before := severities(base)
	if before["LA201"] != rules.Error || before["LA204"] != rules.Info || code != report.ExitFindings {
		t.Fatalf("without a config: findings %v, exit %d; want an LA201 error and LA204 info, exit 3", before, code)
	}
	r, code := probeJSON("rules:\n  LA201: off\n  failover-window-unbounded: warning\n")
	after := severities(r)
	if _, ok := after["LA201"]; ok {
		t.Errorf("LA201 is off in the file but reported: %v", after)
	}
	if after["LA204"] != rules.Warning {
		t.Errorf("LA204 set to warning in the file (by name), reported as %v", after["LA204"])
	}
	if got := r.Verdict.For(rules.UseDELIFEQ); got != report.No || code != report.ExitFindings {
		t.Errorf("with LA201 off: release verdict %v, exit %d; want it UNSAFE still, exit 3", got, code)
	}
	for id, s := range before {
		if id != "LA201" && id != "LA204" && after[id] != s {
			t.Errorf("%s changed from %v to %v though the file does not name it", id, s, after[id])
		}
	}
}
