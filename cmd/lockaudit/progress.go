package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progress shows what long work is doing (loading packages, probing nodes)
// on one stderr line, redrawn in place and erased when the work is done.
// It is on only when stderr is a terminal and no machine-readable report
// (JSON, SARIF) goes to stdout, where a shared terminal would mix the two;
// otherwise every method does nothing. A nil *progress is off too.
type progress struct {
	w    io.Writer
	name string

	mu     sync.Mutex
	msg    string
	start  time.Time
	ticker *time.Ticker
	stop   chan struct{}
	wg     sync.WaitGroup
	drawn  bool
}

// tick is how often the line is redrawn (it shows the elapsed seconds).
const tick = 200 * time.Millisecond

// wantProgress is the decision, apart from the terminal check so tests can
// run it: stderr must be a terminal, TERM must not be "dumb", and stdout
// must not carry JSON or SARIF.
func wantProgress(stderrIsTerminal bool, getenv func(string) string, stdoutFormats []string) bool {
	if !stderrIsTerminal || getenv("TERM") == "dumb" {
		return false
	}
	for _, f := range stdoutFormats {
		if f == "json" || f == "sarif" {
			return false
		}
	}
	return true
}

// newProgress returns the progress line of a command that writes plan.
func newProgress(e *env, name string, plan *outPlan) *progress {
	f, ok := e.Stderr.(*os.File)
	if !wantProgress(ok && isTerminal(f), e.Getenv, stdoutFormats(plan)) {
		return nil
	}
	return &progress{w: e.Stderr, name: name}
}

// phase shows msg (with the elapsed time of the phase) until the next
// phase or done.
func (p *progress) phase(msg string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msg, p.start = msg, time.Now()
	if p.stop == nil {
		p.stop = make(chan struct{})
		p.ticker = time.NewTicker(tick)
		p.wg.Add(1)
		go p.loop(p.ticker, p.stop)
	}
	p.draw()
}

// nodes is a probe.Options.Progress hook.
func (p *progress) nodes(probed, found int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msg = fmt.Sprintf("probing the fleet: %d of %d nodes read", probed, found)
	p.draw()
}

func (p *progress) loop(t *time.Ticker, stop chan struct{}) {
	defer p.wg.Done()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// draw writes the line over the previous one; p.mu is held.
func (p *progress) draw() {
	if p.stop == nil {
		return
	}
	fmt.Fprintf(p.w, "\r\033[Klockaudit %s: %s (%ds)", p.name, p.msg, int(time.Since(p.start).Seconds()))
	p.drawn = true
}

// done stops redrawing and erases the line, so what follows on stderr
// starts on a clean line. It may be called more than once.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	stop := p.stop
	p.stop = nil
	if stop != nil {
		p.ticker.Stop()
		close(stop)
	}
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
	p.mu.Unlock()
	p.wg.Wait()
}
