// Package flow holds the data-flow facts the LA1xx rules share, computed
// once per package on top of the resolve layer's Ops (flow.Analyzer, read
// with flow.Of(pass)):
//
//   - key shapes (ShapeOf, Shape.Same): when two key expressions are "the
//     same key" — same constant text, same variable, same template
//     ("lock:"+id and fmt.Sprintf("lock:%s", id)), same helper function;
//     and hash tags (TagOf, SameTag) for cluster slots;
//   - lock keys (IsLockKey, IsLockAcquire): acquired with SET NX in the
//     package, or matching a lock-key pattern (LockKeys);
//   - reply use (ReplyUse): discarded, error only, examined, or unseen, for
//     every client's reply shape and for queued transaction commands;
//   - token origin (TokenOrigin): is the value an acquire writes unique per
//     acquisition;
//   - fences (Fence, MatchesFenceKey, FenceTaint, IsWriter, WriterCalls):
//     which INCRs are fencing counters, which values derive from their
//     replies, which calls write to a protected resource;
//   - lock regions (LockFuncs, Regions, Holding): where a function holds a
//     lock, from the acquire to the release in source order.
//
// Everything here errs on the side of silence: a value that cannot be
// followed (a parameter, a field, an unknown call, an incomplete Op) is
// reported as unknown, and rules do not report unknowns.
//
// The options (lock-key and fence patterns, writers) are the run's
// settings (analyzers/settings), read through the pass.
package flow
