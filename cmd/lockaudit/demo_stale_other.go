//go:build !unix

package main

// demoGone: where a process cannot be looked up this way, a folder is
// never taken for a killed demo's.
func demoGone(string, int) bool { return false }
