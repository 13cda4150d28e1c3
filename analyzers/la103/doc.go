// Package la103 defines an Analyzer that reports a lock released with a
// plain DEL, UNLINK or GETDEL (rule LA103, plain-del-release).
//
// A key is a lock key when the same key shape (constant, variable, template
// such as "lock:"+id or fmt.Sprintf("lock:%s", id), or helper call) is
// acquired with SET NX/SETNX in the same package, or when its constant text
// matches a lock-key pattern (flag -LA103.lock-key-pattern, shared with
// LA114; default "lock" or "locks" as a word part, so "mylock", "block" and
// "clock" are not lock keys by pattern). A DEL queued in a MULTI after a
// WATCH or a GET of the same key (the optimistic compare-and-delete) is an
// owner-checked release and is not reported; neither is a DEL whose
// arguments the resolve layer could not all see.
package la103
