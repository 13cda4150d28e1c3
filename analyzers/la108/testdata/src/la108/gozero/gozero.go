// Package gozero: go-zero's RedisLock reports a lost lock as false, not as
// an error, so checking only the error is not enough.
package gozero

import (
	"log"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

func positives(l *redis.RedisLock) error {
	l.Release()           // want `^reply of go-zero Release is discarded: false means the lock was already lost \(it expired, or another client holds it\); examine it and record an incident when it reports the lock was not yours$`
	_, err := l.Release() // want `^only the error of go-zero Release is checked: a false reply \(the lock was already lost\) is not an error; examine the reply and record an incident when it reports the lock was not yours$`
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
