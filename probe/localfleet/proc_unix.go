//go:build unix && !linux

package localfleet

import (
	"os"
	"syscall"
)

// procAttr starts a server in its own process group. These systems have no
// parent-death signal: a server outlives a starter killed outright (the
// starter's own cleanup stops it on every other exit).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the server's whole process group.
func killGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGKILL) }
