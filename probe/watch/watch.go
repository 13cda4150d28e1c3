// Package watch re-probes a fleet on an interval and serves what the last
// probe found: Prometheus metrics at /metrics (a private registry, so only
// lockaudit's own series) and the latest HTML report at /report (JSON at
// /report.json), and /healthz for liveness. It never talks to a server
// itself: each round is one read-only probe.Run, given to it as
// Options.Probe. Serve runs the HTTP side hardened for a network: timeouts,
// a connection cap and a Host allowlist (server.go).
package watch

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// Options configure a watch.
type Options struct {
	Interval time.Duration                              // between the end of one probe and the start of the next
	Probe    func(context.Context) (*report.Run, error) // one read-only probe
	// Render writes a run in a format ("html", "json"): the command gives
	// the renderers' (report/render), which the probe never imports.
	Render func(w io.Writer, r *report.Run, format string) error
	// Logf, when set, gets one line per probe whose outcome differs from
	// the previous one (and every probe error).
	Logf func(format string, args ...any)
	Now  func() time.Time // default time.Now
	// Version and Revision label lockaudit_build_info (the Go version is
	// the running one's).
	Version, Revision string
}

// Watcher holds the latest probe and serves it.
type Watcher struct {
	opt Options
	reg *prometheus.Registry

	mu          sync.Mutex
	last        *report.Run
	html, json  []byte
	probes      map[string]float64 // probes by outcome (ok, findings, unknown, failed)
	errors      float64            // probes that could not run or read no node
	lastProbe   time.Time
	lastSuccess time.Time
	duration    time.Duration
	summary     string
}

// New returns a Watcher; call Run to start probing and serve Handler.
func New(opt Options) *Watcher {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	w := &Watcher{opt: opt, reg: prometheus.NewRegistry(), probes: map[string]float64{}}
	w.reg.MustRegister(collector{w})
	return w
}

// Run probes now and then every Interval until ctx ends.
func (w *Watcher) Run(ctx context.Context) {
	for {
		start := w.opt.Now()
		run, err := w.opt.Probe(ctx)
		if ctx.Err() != nil {
			return // interrupted mid-probe: keep the last complete one
		}
		w.Update(run, err, w.opt.Now().Sub(start))
		t := time.NewTimer(w.opt.Interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// Update records one probe's result.
func (w *Watcher) Update(run *report.Run, err error, took time.Duration) {
	now := w.opt.Now()
	var html, js bytes.Buffer
	if err == nil {
		if rerr := w.opt.Render(&html, run, "html"); rerr != nil {
			err = fmt.Errorf("rendering the HTML report: %v", rerr)
		} else if rerr := w.opt.Render(&js, run, "json"); rerr != nil {
			err = fmt.Errorf("rendering the JSON report: %v", rerr)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lastProbe, w.duration = now, took
	var summary string
	if err != nil {
		w.errors++
		w.probes["failed"]++
		summary = "probe failed: " + err.Error()
	} else {
		code := report.ExitCode(run)
		w.probes[outcome(code)]++
		if code == report.ExitFailed {
			w.errors++
		} else {
			w.lastSuccess = now
		}
		w.last, w.html, w.json = run, html.Bytes(), js.Bytes()
		summary = report.Summary(run)
		if v := run.Verdict; v != nil {
			summary = fmt.Sprintf("%s; %s (exit %d)", v.Summary(), summary, code)
		}
	}
	if w.opt.Logf != nil && (summary != w.summary || err != nil) {
		w.opt.Logf("%s", summary)
	}
	w.summary = summary
}

func outcome(code int) string {
	switch code {
	case report.ExitOK:
		return "ok"
	case report.ExitFindings:
		return "findings"
	case report.ExitUnknown:
		return "unknown"
	}
	return "failed"
}

// Handler serves /metrics, /report (HTML), /report.json, /healthz and an
// index at /. It checks no Host: Serve puts the allowlist in front of it.
func (w *Watcher) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(w.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	// Liveness: the watcher serves. It never probes (a scrape of it must
	// not load the fleet) and says nothing about the fleet: /metrics does.
	mux.HandleFunc("GET /healthz", func(rw http.ResponseWriter, _ *http.Request) {
		rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		rw.Header().Set("Cache-Control", "no-store")
		fmt.Fprintln(rw, "ok")
	})
	mux.HandleFunc("GET /report", w.serve("text/html; charset=utf-8", func() []byte { return w.html }))
	mux.HandleFunc("GET /report.json", w.serve("application/json", func() []byte { return w.json }))
	mux.HandleFunc("GET /{$}", func(rw http.ResponseWriter, _ *http.Request) {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(rw, `<!doctype html><title>lockaudit probe -watch</title><p><a href="/metrics">/metrics</a> · <a href="/report">/report</a> (latest HTML report) · <a href="/report.json">/report.json</a> · <a href="/healthz">/healthz</a></p>`)
		fmt.Fprintf(rw, "<p>%s</p>", html.EscapeString(w.asOf()))
	})
	return mux
}

// asOf says when the fleet the latest report shows was read.
func (w *Watcher) asOf() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.last == nil {
		return "No probe has completed yet."
	}
	if p := w.last.Probed; p != nil {
		return "The latest report shows the fleet as read from " + p.Start + " to " + p.End + "."
	}
	return "The latest report shows the probe that ended at " + w.lastProbe.UTC().Format(time.RFC3339) + "."
}

func (w *Watcher) serve(ctype string, body func() []byte) http.HandlerFunc {
	return func(rw http.ResponseWriter, _ *http.Request) {
		w.mu.Lock()
		b := body()
		w.mu.Unlock()
		if b == nil {
			http.Error(rw, "no probe has completed yet; retry after the first probe", http.StatusServiceUnavailable)
			return
		}
		rw.Header().Set("Content-Type", ctype)
		rw.Header().Set("Cache-Control", "no-store")
		rw.Write(b)
	}
}

// The metrics. Every series is built from the latest probe at scrape time,
// so a node that leaves the fleet leaves the metrics too.
var (
	descVerdict = prometheus.NewDesc("lockaudit_verdict",
		"1 for the latest probe's verdict on each path (native_release, native_extend: safe, unsafe, unknown; lua: available, missing, unknown), 0 for the other values.",
		[]string{"path", "verdict"}, nil)
	descRelied = prometheus.NewDesc("lockaudit_relied_on",
		"1 when the path is one the code relies on (-uses): its verdict decides the exit status.", []string{"path"}, nil)
	descExit = prometheus.NewDesc("lockaudit_probe_exit_code",
		"Exit status lockaudit probe would return for the latest probe: 0 safe, 3 unsafe or error finding, 4 unknown, 1 no node read.", nil, nil)
	descNode = prometheus.NewDesc("lockaudit_node_info",
		"1 for every node of the latest probe, with its role, server, version and whether a failover can promote it.",
		[]string{"node", "role", "server", "version", "promotable"}, nil)
	descAnswer = prometheus.NewDesc("lockaudit_node_answer",
		"1 for each node's answer (yes, no, unknown) about a lock command: delifeq, delex, set_ifeq, lua.",
		[]string{"node", "command", "answer"}, nil)
	descNodeErrors = prometheus.NewDesc("lockaudit_node_errors",
		"Facts the latest probe could not read on the node (0: all read; a node that did not answer has at least 1).", []string{"node"}, nil)
	descFindings = prometheus.NewDesc("lockaudit_findings",
		"Active findings of the latest probe, by rule and severity.", []string{"rule", "severity"}, nil)
	descProbes = prometheus.NewDesc("lockaudit_probes_total",
		"Probes run, by outcome: ok, findings, unknown, failed.", []string{"outcome"}, nil)
	descErrors = prometheus.NewDesc("lockaudit_probe_errors_total",
		"Probes that failed: they could not run, or read no node at all.", nil, nil)
	descLastProbe = prometheus.NewDesc("lockaudit_last_probe_timestamp_seconds",
		"When the latest probe ended (Unix time).", nil, nil)
	descLastSuccess = prometheus.NewDesc("lockaudit_last_success_timestamp_seconds",
		"When the latest probe that read the fleet ended (Unix time): exit status 0, 3 or 4.", nil, nil)
	descDuration = prometheus.NewDesc("lockaudit_probe_duration_seconds",
		"How long the latest probe took.", nil, nil)
	descBuild = prometheus.NewDesc("lockaudit_build_info",
		"1, labelled with the lockaudit version, its VCS revision and the Go version it was built with.",
		[]string{"version", "revision", "goversion"}, nil)
)

type collector struct{ w *Watcher }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descBuild, descVerdict, descRelied, descExit, descNode, descAnswer, descNodeErrors, descFindings, descProbes, descErrors, descLastProbe, descLastSuccess, descDuration} {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	w := c.w
	w.mu.Lock()
	defer w.mu.Unlock()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	gauge(descBuild, 1, w.opt.Version, w.opt.Revision, runtime.Version())
	for _, o := range []string{"ok", "findings", "unknown", "failed"} {
		ch <- prometheus.MustNewConstMetric(descProbes, prometheus.CounterValue, w.probes[o], o)
	}
	ch <- prometheus.MustNewConstMetric(descErrors, prometheus.CounterValue, w.errors)
	if !w.lastProbe.IsZero() {
		gauge(descLastProbe, float64(w.lastProbe.UnixMilli())/1000)
		gauge(descDuration, w.duration.Seconds())
	}
	if !w.lastSuccess.IsZero() {
		gauge(descLastSuccess, float64(w.lastSuccess.UnixMilli())/1000)
	}
	run := w.last
	if run == nil {
		return
	}
	gauge(descExit, float64(report.ExitCode(run)))
	if v := run.Verdict; v != nil {
		used := map[rules.Command]bool{}
		for _, u := range run.Uses {
			used[u.Command] = true
		}
		for _, path := range rules.Paths() {
			current := v.Of(path).Word()
			for _, val := range report.VerdictWords(path) {
				gauge(descVerdict, b2f(current == val), path.String(), val)
			}
			relied := false
			for _, u := range path.Commands() {
				relied = relied || used[u]
			}
			gauge(descRelied, b2f(relied), path.String())
		}
	}
	for _, n := range run.Nodes {
		gauge(descNode, 1, n.Addr, n.Role, n.Server, n.Version, n.Promotable.String())
		gauge(descNodeErrors, float64(len(n.Errors)), n.Addr)
		if n.Role == report.RoleSentinel {
			continue
		}
		for _, c := range rules.Commands() {
			gauge(descAnswer, 1, n.Addr, report.AnswerField(c), n.Answer(c).String())
		}
	}
	counts := map[[2]string]int{}
	for _, f := range run.Active() {
		counts[[2]string{string(f.Rule), f.Severity.String()}]++
	}
	keys := make([][2]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0] < keys[j][0] })
	for _, k := range keys {
		gauge(descFindings, float64(counts[k]), k[0], k[1])
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
