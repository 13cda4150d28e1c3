//go:build unix

package main

import (
	"os"
	"syscall"
)

// demoGone reports whether path is a folder of this user's whose demo,
// process pid, no longer exists.
func demoGone(path string, pid int) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return false
	}
	return syscall.Kill(pid, 0) == syscall.ESRCH
}
