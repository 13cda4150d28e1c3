package rueidislock

import (
	"context"

	"github.com/redis/rueidis/rueidislock"
)

func job(ctx context.Context) {
	locker, _ := rueidislock.NewLocker(rueidislock.LockerOption{}) // want `rueidislock.NewLocker \(locker\) runs Lua`
	_, cancel, _ := locker.WithContext(ctx, "job")                 // want `Locker.WithContext \(acquire\)`
	cancel()
	locker.Close()
}

// A type of our own with the same method names is not the library.
type myLocker struct{}

func (myLocker) WithContext(ctx context.Context, name string) (context.Context, context.CancelFunc, error) {
	return ctx, func() {}, nil
}

func own(ctx context.Context, l myLocker) {
	_, cancel, _ := l.WithContext(ctx, "job")
	cancel()
}
