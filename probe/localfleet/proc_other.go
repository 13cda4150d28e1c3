//go:build !unix

package localfleet

import (
	"os"
	"syscall"
)

// procAttr: no process groups here; the server is killed alone.
func procAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the server process.
func killGroup(p *os.Process) { p.Kill() }
