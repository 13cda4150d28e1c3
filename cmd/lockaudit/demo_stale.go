package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// demoDirPrefix begins the demo's temp folder, which goes on with the
// demo's process ID (lockaudit-demo-PID-…): a demo killed outright
// (SIGKILL) runs no clean-up, so the next demo removes the folders of
// demos that are gone (demoGone: the process no longer exists, and the
// folder is this user's).
const demoDirPrefix = "lockaudit-demo-"

// demoDirPattern is the os.MkdirTemp pattern of this process's folder.
func demoDirPattern() string { return demoDirPrefix + strconv.Itoa(os.Getpid()) + "-" }

// removeStaleDemoDirs removes from tmp the folders of demos that are gone.
// Anything it cannot tell is left alone.
func removeStaleDemoDirs(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, de := range entries {
		rest, ok := strings.CutPrefix(de.Name(), demoDirPrefix)
		if !ok || !de.IsDir() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if path := filepath.Join(tmp, de.Name()); demoGone(path, pid) {
			os.RemoveAll(path)
		}
	}
}
