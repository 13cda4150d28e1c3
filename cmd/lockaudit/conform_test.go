package main

import (
	"bytes"
	"errors"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/drill/linkproxy"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
)

func TestConformCLIRefusesWithoutWriteFlag(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	s.Do(t, "CONFIG", "RESETSTAT")
	_, stderr, code := runIn(t, t.TempDir(), nil, "conform", s.Addr)
	if code != report.ExitUsage || !strings.Contains(stderr, "-write-scratch-key") {
		t.Errorf("without -write-scratch-key: exit %d, stderr %q; want 2 naming the flag", code, stderr)
	}
	for k := range s.Info(t, "commandstats") {
		if k != "cmdstat_config|resetstat" && k != "cmdstat_info" {
			t.Errorf("conform refused to run but %s reached the server", k)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"conform", "-write-scratch-key", "-prefix", "a b", s.Addr}, "-prefix"},
		{[]string{"conform", "-write-scratch-key", "-prefix", "{tag}", s.Addr}, "-prefix"},
		{[]string{"conform", "-write-scratch-key", "-ttl", "10ms", s.Addr}, "-ttl must be between 1s and 10m0s"},
		{[]string{"conform", "-write-scratch-key", "-ttl", "11m", s.Addr}, "-ttl must be between 1s and 10m0s"},
		{[]string{"conform", "-write-scratch-key", "-timeout", "1s", "-wait-timeout", "2s", s.Addr}, "-wait-timeout"},
		{[]string{"conform", "-write-scratch-key", "-password", "hunter2-secret", s.Addr}, "LOCKAUDIT_PASSWORD"},
		{[]string{"conform", "-write-scratch-key"}, "no address to probe"},
	} {
		stdout, stderr, code := runIn(t, t.TempDir(), nil, tt.args...)
		if code != report.ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
		if strings.Contains(stdout+stderr, "hunter2-secret") {
			t.Errorf("%q echoed the password", tt.args)
		}
	}
}

func TestConformCLI(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	stdout, stderr, code := runIn(t, t.TempDir(), nil, "conform", "-write-scratch-key", "-prefix", "staging:conform:", n[0].Addr)
	if code != 0 || !strings.Contains(stdout, "extend without PX (LA104 trap)") || !strings.Contains(stdout, "Exit status 0") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	servertest.WaitOffsets(t, n[0], n[1])
	for _, s := range n {
		if got := s.Do(t, "DBSIZE"); got != "0" {
			t.Errorf("%s: DBSIZE %s after conform", s.Addr, got)
		}
	}
}

// TestConformCLIExitZero: on an 8.1 node (no DELIFEQ) conform reports
// LA213 and exits 3; with -exit-zero the same report exits 0.
func TestConformCLIExitZero(t *testing.T) {
	servertest.Require(t, servertest.Valkey81)
	s := servertest.Start(t, servertest.Config{Version: servertest.Valkey81})
	out, stderr, code := runIn(t, t.TempDir(), nil, "conform", "-write-scratch-key", s.Addr)
	if code != report.ExitFindings || !strings.Contains(out, "LA213") {
		t.Fatalf("conform on 8.1: exit %d, want 3 with LA213\n%s%s", code, out, stderr)
	}
	if _, stderr, code := runIn(t, t.TempDir(), nil, "conform", "-write-scratch-key", "-exit-zero", s.Addr); code != 0 {
		t.Errorf("conform -exit-zero on 8.1: exit %d, want 0\n%s", code, stderr)
	}
	if got := s.Do(t, "DBSIZE"); got != "0" {
		t.Errorf("DBSIZE %s after conform", got)
	}
}

// TestConformCLIInterrupt sends each signal short of SIGKILL — SIGINT
// (Ctrl-C), SIGTERM, SIGHUP (the terminal closed), SIGQUIT (Ctrl-\) — to a
// real lockaudit process while its scratch keys exist: it deletes them and
// exits 128+signal, as every command does when it is interrupted. The
// replica replicates through a link proxy that holds the primary's stream,
// so every WAIT lasts its whole timeout and the first scratch key stays
// for seconds: the signal always lands while a key exists, however slow
// the machine.
func TestConformCLIInterrupt(t *testing.T) {
	bin := lockauditBinary(t)
	primary, replica, link := replicaThroughProxy(t)
	for _, sig := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGQUIT, 131}} {
		t.Run(sig.sig.String(), func(t *testing.T) {
			if err := link.SetMode(linkproxy.HoldData); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			cmd := exec.Command(bin, "conform", "-write-scratch-key", "-timeout", "4s", "-wait-timeout", "3s", primary.Addr)
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			deadline := time.Now().Add(30 * time.Second)
			for primary.Do(t, "DBSIZE") == "0" {
				if time.Now().After(deadline) {
					t.Fatalf("no scratch key appeared; stderr:\n%s", errb.String())
				}
				time.Sleep(time.Millisecond)
			}
			if err := cmd.Process.Signal(sig.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if err := link.SetMode(linkproxy.Pass); err != nil {
				t.Fatal(err)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != sig.code {
				t.Errorf("conform stopped by %s: %v, want exit status %d\n%s", sig.sig, err, sig.code, errb.String())
			}
			if !strings.Contains(out.String()+errb.String(), "interrupted") {
				t.Errorf("the report does not say it was interrupted:\n%s\n%s", out.String(), errb.String())
			}
			servertest.WaitOffsets(t, primary, replica)
			for _, s := range []*servertest.Server{primary, replica} {
				if got := s.Do(t, "DBSIZE"); got != "0" {
					t.Errorf("%s: DBSIZE %s after conform stopped by %s, want 0", s.Addr, got, sig.sig)
				}
			}
		})
	}
}

// replicaThroughProxy starts a primary and a replica that replicates it
// through a link proxy, and waits until the link is up.
func replicaThroughProxy(t *testing.T) (primary, replica *servertest.Server, link *linkproxy.Proxy) {
	t.Helper()
	primary = servertest.Start(t, servertest.Config{})
	link, err := linkproxy.Start(primary.Addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { link.Close() })
	replica = servertest.Start(t, servertest.Config{})
	_, port, _ := net.SplitHostPort(link.Addr)
	replica.Do(t, "REPLICAOF", "127.0.0.1", port)
	deadline := time.Now().Add(servertest.SettleTimeout)
	for {
		info := replica.Info(t, "replication")
		if info["master_link_status"] == "up" && link.Replicas() == 1 {
			return primary, replica, link
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica's link through the proxy is not up after %s: master_link_status %q, %d proxied links", servertest.SettleTimeout, info["master_link_status"], link.Replicas())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
