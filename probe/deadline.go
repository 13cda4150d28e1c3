package probe

import (
	"context"
	"errors"
	"time"
)

// One deadline for every command that reads a fleet (probe, audit, scan,
// conform, probe -watch): the run's work ends a little before -deadline,
// keeping a reserve to judge what was read and write the report, so that
// the command itself ends within it.

// errDeadline ends a run's context when -deadline passes; any other end
// is the caller's (Ctrl-C), which is never worded as the deadline.
var errDeadline = errors.New("the overall deadline (-deadline) passed first")

// Reserve is the part of a deadline d kept, at its end, for judging what
// was read and writing the report: a tenth of it, at most a second.
func Reserve(d time.Duration) time.Duration { return min(d/10, time.Second) }

// WithDeadline returns the context a fleet command works under when its
// whole run must end within d: it ends Reserve(d) before d, with the
// deadline as its cause (Stopped says so).
func WithDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d-Reserve(d), errDeadline)
}

// Stopped says why ctx ended: the run's deadline, or an interruption.
func Stopped(ctx context.Context) string {
	if context.Cause(ctx) == errDeadline || (ctx.Err() == nil && ended(ctx)) {
		return errDeadline.Error()
	}
	return "interrupted"
}

// DeadlinePassed reports whether ctx ended because the run's deadline
// passed (not because it was interrupted).
func DeadlinePassed(ctx context.Context) bool {
	return ended(ctx) && Stopped(ctx) == errDeadline.Error()
}

// ended reports whether ctx has ended, or its deadline has passed: a socket
// deadline set from it can fire before ctx's own timer marks it done.
func ended(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}
