package localfleet

import (
	"os"
	"syscall"
)

// procAttr starts a server in its own process group, killed by the kernel
// when the process that started it dies (even by SIGKILL).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the server's whole process group.
func killGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGKILL) }
