package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

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
// real lockaudit process while its scratch keys exist (its replica is
// paused, so every WAIT holds it): it deletes them and exits 128+signal,
// as every command does when it is interrupted.
func TestConformCLIInterrupt(t *testing.T) {
	bin := lockauditBinary(t)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	for _, sig := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGQUIT, 131}} {
		t.Run(sig.sig.String(), func(t *testing.T) {
			var out, errb bytes.Buffer
			cmd := exec.Command(bin, "conform", "-write-scratch-key", "-timeout", "4s", "-wait-timeout", "3s", n[0].Addr)
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			stopped := false
			defer func() {
				if stopped {
					syscall.Kill(n[1].Pid(), syscall.SIGCONT)
				}
				cmd.Process.Kill()
			}()
			deadline := time.Now().Add(30 * time.Second)
			for {
				if got := n[0].Do(t, "DBSIZE"); got != "0" {
					break // a scratch key exists
				}
				if time.Now().After(deadline) {
					t.Fatalf("no scratch key appeared; stderr:\n%s", errb.String())
				}
				time.Sleep(time.Millisecond)
			}
			if err := syscall.Kill(n[1].Pid(), syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			stopped = true
			if err := cmd.Process.Signal(sig.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			syscall.Kill(n[1].Pid(), syscall.SIGCONT)
			stopped = false
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != sig.code {
				t.Errorf("conform stopped by %s: %v, want exit status %d\n%s", sig.sig, err, sig.code, errb.String())
			}
			if !strings.Contains(out.String()+errb.String(), "interrupted") {
				t.Errorf("the report does not say it was interrupted:\n%s\n%s", out.String(), errb.String())
			}
			servertest.WaitOffsets(t, n[0], n[1])
			for _, s := range n {
				if got := s.Do(t, "DBSIZE"); got != "0" {
					t.Errorf("%s: DBSIZE %s after conform stopped by %s, want 0", s.Addr, got, sig.sig)
				}
			}
		})
	}
}
