// Package libs: LA108 on lock libraries (they report a lost lock as an
// error, so only a dropped result is reported).
package libs

import (
	"context"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
)

func positives(ctx context.Context, m *redsync.Mutex, l *redislock.Lock) {
	m.Unlock()                       // want `^result of redsync Unlock is discarded, but an error means the lock was lost: check it and record an incident if it was lost$`
	defer m.UnlockContext(ctx)       // want `^result of redsync UnlockContext is discarded`
	_, _ = m.Extend()                // want `^result of redsync Extend is discarded, but an error means the lock was lost: check it and stop the work if it is lost$`
	l.Refresh(ctx, time.Minute, nil) // want `^result of redislock Refresh is discarded, but an error means`
	defer l.Release(ctx)             // want `^result of redislock Release is discarded`
}

func negatives(ctx context.Context, m *redsync.Mutex, l *redislock.Lock) error {
	if ok, err := m.Extend(); !ok || err != nil {
		return err
	}
	if err := l.Refresh(ctx, time.Minute, nil); err != nil {
		return err
	}
	defer func() {
		if err := l.Release(ctx); err != nil {
			log.Printf("release: %v", err)
		}
	}()
	_, err := m.Unlock() // redsync returns an error whenever ok is false
	return err
}
