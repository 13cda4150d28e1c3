package localfleet_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/probe/servertest"
)

// TestReplicationStartAndKill: a mixed-version chain starts, settles and
// replicates; KillAll ends every process group.
func TestReplicationStartAndKill(t *testing.T) {
	servertest.Require(t, localfleet.Valkey91, localfleet.Valkey81)
	root := t.TempDir()
	newDir := func() (string, error) { return os.MkdirTemp(root, "node-") }
	ss, err := localfleet.StartReplication(context.Background(), newDir, time.Minute,
		localfleet.Node{},
		localfleet.Node{Config: localfleet.Config{Version: localfleet.Valkey81}, Of: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer localfleet.KillAll(ss)
	if ss[1].Line != localfleet.Valkey81 || !strings.HasPrefix(ss[1].Version, "8.1.") {
		t.Errorf("replica is %s %s, want valkey-8.1", ss[1].Line, ss[1].Version)
	}
	info, err := ss[1].Info("replication")
	if err != nil || info["role"] != "slave" || info["master_link_status"] != "up" {
		t.Errorf("replica INFO replication: %v %v", info, err)
	}
	localfleet.KillAll(ss)
	for _, s := range ss {
		if !s.Exited() {
			t.Errorf("%s still running after KillAll", s.Addr)
		}
		if err := syscall.Kill(-s.Pid(), 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process group %d of %s: %v, want ESRCH", s.Pid(), s.Addr, err)
		}
		if _, err := s.Try("PING"); err == nil {
			t.Errorf("%s answers PING after KillAll", s.Addr)
		}
	}
}

// TestNotInstalled: a missing install folder is an error that names the
// script, before anything starts.
func TestNotInstalled(t *testing.T) {
	dir := t.TempDir()
	_, err := localfleet.StartReplication(context.Background(), func() (string, error) { return os.MkdirTemp(dir, "n-") }, time.Second,
		localfleet.Node{Config: localfleet.Config{Servers: dir}})
	if err == nil || !strings.Contains(err.Error(), ".ci/install-servers") || !strings.Contains(err.Error(), dir) {
		t.Errorf("err = %v, want one naming .ci/install-servers and %s", err, dir)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("folders were created for servers that cannot start: %v", entries)
	}
	if got := localfleet.DirFrom(func(k string) string { return map[string]string{"LOCKAUDIT_SERVERS": "/x"}[k] }); got != "/x" {
		t.Errorf("DirFrom(LOCKAUDIT_SERVERS=/x) = %s", got)
	}
	if got := localfleet.DirFrom(func(k string) string { return map[string]string{"XDG_CACHE_HOME": "/c"}[k] }); got != "/c/lockaudit/servers" {
		t.Errorf("DirFrom(XDG_CACHE_HOME=/c) = %s", got)
	}
}

// TestBadTopologyAndCancel: a replica of a node that does not exist is an
// error; a cancelled context stops a start and leaves nothing running.
func TestBadTopologyAndCancel(t *testing.T) {
	if _, err := localfleet.StartReplication(context.Background(), nil, time.Second, localfleet.Node{}, localfleet.Node{Of: 5}); err == nil || !strings.Contains(err.Error(), "node 1 replicates node 5") {
		t.Errorf("bad Of: %v", err)
	}
	servertest.Require(t, localfleet.Valkey91)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	root := t.TempDir()
	_, err := localfleet.StartReplication(ctx, func() (string, error) { return os.MkdirTemp(root, "n-") }, time.Minute, localfleet.Node{}, localfleet.Node{Of: 0})
	if !errors.Is(err, context.Canceled) && (err == nil || !strings.Contains(err.Error(), "context canceled")) {
		t.Errorf("cancelled start: %v", err)
	}
}
