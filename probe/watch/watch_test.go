package watch

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// serve runs the watcher's handler on a loopback port.
func serve(t *testing.T, w *Watcher) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// scrape parses /metrics into "name{label=value,...}" -> value, labels sorted.
func scrape(t *testing.T, base string) map[string]float64 {
	t.Helper()
	code, body := get(t, base+"/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d %s", code, body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v\n%s", err, body)
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.Metric {
			out[series(name, m)] = value(m)
		}
	}
	return out
}

func series(name string, m *dto.Metric) string {
	var ls []string
	for _, l := range m.Label {
		ls = append(ls, l.GetName()+"="+l.GetValue())
	}
	return name + "{" + strings.Join(ls, ",") + "}"
}

func value(m *dto.Metric) float64 {
	switch {
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Counter != nil:
		return m.Counter.GetValue()
	}
	return -1
}

// waitMetrics scrapes until cond holds (the fleet change reached a probe).
func waitMetrics(t *testing.T, base, what string, cond func(map[string]float64) bool) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		m := scrape(t, base)
		if cond(m) {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen in the metrics within 60s:\n%v", what, m)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func countPrefix(m map[string]float64, prefix string) int {
	n := 0
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			n++
		}
	}
	return n
}

// TestWatchSeesTheFleetChange: a replica attached and Lua unloaded while
// watched change the metrics; MONITOR shows the watcher sends no write.
func TestWatchSeesTheFleetChange(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	p := servertest.Start(t, servertest.Config{ModuleCommand: true})
	mon := p.Monitor(t)
	opt := probe.Options{Addrs: []string{p.Addr}, Timeout: 5 * time.Second, Uses: []rules.Command{rules.UseDELIFEQ, rules.UseIFEQ, rules.UseLua}}
	w := New(Options{Render: render.Render, Interval: 50 * time.Millisecond, Probe: func(ctx context.Context) (*report.Run, error) { return probe.Run(ctx, opt) }})
	base := serve(t, w)
	if code, _ := get(t, base+"/report"); code != http.StatusServiceUnavailable {
		t.Errorf("/report before any probe: %d, want 503", code)
	}
	ctx, cancel := context.WithCancel(servertest.Loopback(t))
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	m := waitMetrics(t, base, "the first probe", func(m map[string]float64) bool { return m["lockaudit_probes_total{outcome=ok}"] >= 1 })
	for k, want := range map[string]float64{
		"lockaudit_verdict{path=native_release,verdict=safe}": 1,
		"lockaudit_verdict{path=lua,verdict=available}":       1,
		"lockaudit_verdict{path=lua,verdict=missing}":         0,
		"lockaudit_relied_on{path=lua}":                       1,
		"lockaudit_probe_exit_code{}":                         0,
		"lockaudit_node_errors{node=" + p.Addr + "}":          0,
	} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if n := countPrefix(m, "lockaudit_node_info{"); n != 1 {
		t.Errorf("%d nodes, want 1", n)
	}
	if m["lockaudit_last_success_timestamp_seconds{}"] <= 0 {
		t.Errorf("no last success time")
	}

	// An 8.1 replica joins: release becomes unsafe, the node appears.
	r := servertest.Start(t, servertest.Config{Version: servertest.Valkey81})
	r.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(p.Port))
	r.WaitReplicating(t, p)
	m = waitMetrics(t, base, "the 8.1 replica", func(m map[string]float64) bool {
		return m["lockaudit_verdict{path=native_release,verdict=unsafe}"] == 1
	})
	if m["lockaudit_node_answer{answer=no,command=delifeq,node="+r.Addr+"}"] != 1 || countPrefix(m, "lockaudit_node_info{") != 2 ||
		m["lockaudit_probe_exit_code{}"] != 3 || m["lockaudit_findings{rule=LA201,severity=error}"] != 1 {
		t.Errorf("after the replica joined: %v", m)
	}

	// Lua unloaded on the primary: lua goes missing.
	p.UnloadLua(t)
	m = waitMetrics(t, base, "Lua unloaded", func(m map[string]float64) bool {
		return m["lockaudit_verdict{path=lua,verdict=missing}"] == 1
	})
	if m["lockaudit_node_answer{answer=no,command=lua,node="+p.Addr+"}"] != 1 || m["lockaudit_verdict{path=lua,verdict=available}"] != 0 {
		t.Errorf("after MODULE UNLOAD lua: %v", m)
	}

	code, js := get(t, base+"/report.json")
	var run report.Run
	if err := json.Unmarshal([]byte(js), &run); code != 200 || err != nil || run.Verdict == nil || run.Verdict.Of(rules.LuaScripts).Safe != report.No {
		t.Errorf("/report.json: %d %v %+v", code, err, run.Verdict)
	}
	// Every view says when the fleet it shows was read: the report (its
	// "Servers read" line), its JSON form, and the index.
	if run.Probed == nil || run.Probed.End == "" || run.Time == "" {
		t.Errorf("/report.json has no probe time: probed %+v, time %q", run.Probed, run.Time)
	}
	code, html := get(t, base+"/report")
	if code != 200 || !strings.Contains(html, r.Addr) || !strings.Contains(html, "<html") {
		t.Errorf("/report: %d, without the replica or not HTML", code)
	}
	if run.Probed != nil && !strings.Contains(html, "Servers read") {
		t.Errorf("/report does not say when the fleet was read")
	}
	if _, index := get(t, base+"/"); run.Probed == nil || !strings.Contains(index, "as read from ") {
		t.Errorf("the index does not say when the fleet was read:\n%s", index)
	}
	// -uses named the commands: no view says the code was read.
	if strings.Contains(html, "The code relies on it") || !strings.Contains(html, "Relied on (-uses)") {
		t.Errorf("/report words -uses as if the code had been read")
	}

	cancel()
	<-done
	// A seed's one batch also asks for the cluster view, before its mode is
	// known (a standalone node answers that cluster support is disabled).
	allowed := map[string]bool{"hello": true, "client|setname": true, "ping": true, "info": true, "role": true, "time": true,
		"command|info": true, "command|docs": true, "config|get": true, "cluster|nodes": true, "cluster|shards": true}
	saw := 0
	for _, c := range mon.Stop(t) {
		if c.Client == r.Addr || c.Name() == "replconf" || c.Name() == "psync" || c.Name() == "echo" {
			continue // the replica's own traffic; the test's admin commands are not watched
		}
		if c.Name() == "command|docs" {
			saw++
		}
		if !allowed[c.Name()] && !(c.Name() == "replicaof" || c.Name() == "module|unload") {
			t.Errorf("the primary received %v from %s", c.Args, c.Client)
		}
	}
	if saw < 3 {
		t.Errorf("MONITOR saw %d probes, want at least 3", saw)
	}
}

func TestWatchRecordsFailures(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	w := New(Options{Render: render.Render, Interval: time.Hour, Now: func() time.Time { return now }})
	base := serve(t, w)
	run := report.New("probe", "test")
	run.Verdict = report.NewVerdict()
	for i := range run.Verdict.Paths {
		run.Verdict.Paths[i].Safe = report.Yes
	}
	w.Update(run, nil, 2*time.Second)
	now = now.Add(time.Minute)
	w.Update(nil, errors.New("boom"), time.Second)
	failed := report.New("probe", "test")
	failed.Errors = []report.Error{{Where: "127.0.0.1:1", Message: "could not be probed"}}
	now = now.Add(time.Minute)
	w.Update(failed, nil, time.Second)
	m := scrape(t, base)
	for k, want := range map[string]float64{
		"lockaudit_probes_total{outcome=ok}":         1,
		"lockaudit_probes_total{outcome=failed}":     2,
		"lockaudit_probe_errors_total{}":             2,
		"lockaudit_last_success_timestamp_seconds{}": 1_800_000_000,
		"lockaudit_last_probe_timestamp_seconds{}":   1_800_000_120,
		"lockaudit_probe_exit_code{}":                1,
	} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
}
