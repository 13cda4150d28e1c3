// Package libs: LA108 on lock libraries (they report a lost lock as an
// error, so only a dropped result is reported).
package libs

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
	redsyncv1 "github.com/go-redsync/redsync"
	redsync3 "github.com/go-redsync/redsync/v3"
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

// redsync before /v4 reports a lost lock as Unlock's or Extend's false,
// with no error (v1 returns only the bool).
func oldRedsync(m *redsyncv1.Mutex, m3 *redsync3.Mutex) error {
	m.Unlock()            // want `^reply of redsync Unlock is discarded, but false means the lock was lost: examine it and record an incident if it was lost$`
	_, err := m3.Unlock() // want `^only the error of redsync Unlock is checked, but false \(lock lost\) is no error`
	if err != nil {
		return err
	}
	if !m.Extend() {
		return errors.New("lost")
	}
	if unlocked := m.Unlock(); !unlocked {
		return errors.New("lock not unlocked")
	}
	if ok, err := m3.Extend(); !ok || err != nil {
		return errors.New("lost")
	}
	return nil
}
