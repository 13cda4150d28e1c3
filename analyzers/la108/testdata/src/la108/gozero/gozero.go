// Package gozero: go-zero's RedisLock reports a lost lock as false, not as
// an error, so checking only the error is not enough.
package gozero

import (
	"log"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

func positives(l *redis.RedisLock) error {
	l.Release()           // want `^reply of go-zero Release is discarded, but false means the lock was lost: examine it and record an incident if it was lost$`
	_, err := l.Release() // want `^only the error of go-zero Release is checked, but false \(lock lost\) is no error: examine the reply and record an incident if it was lost$`
	return err
}

func negatives(l *redis.RedisLock) error {
	ok, err := l.Release()
	if err != nil {
		return err
	}
	if !ok {
		log.Print("the lock was no longer ours")
	}
	_, _ = l.Acquire() // an acquire: not LA108's
	return nil
}
