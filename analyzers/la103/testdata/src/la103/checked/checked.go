// Package checked: a GET-compare-then-DEL in two round trips checks the
// token, but the lock can expire and pass to another client between the
// check and the delete: its own message. State flags are no locks.
package checked

import (
	"context"
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

var errNotOwner = errors.New("not the owner")

func unlock(ctx context.Context, rdb *goredis.Client, job, token string) error {
	key := "lock:" + job
	v, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if v != token {
		return errNotOwner
	}
	return rdb.Del(ctx, key).Err() // want "^DEL of lock key `key` races the GET check at line 19: the lock can change hands in between; use DELIFEQ key token$"
}

// A release helper whose key is a parameter: the owner check and the name
// say lock.
func releaseLock(conn redis.Conn, key, token string) error {
	v, err := redis.String(conn.Do("GET", key))
	if err != nil || v != token {
		return err
	}
	_, err = conn.Do("DEL", key) // want "^DEL of lock key `key` races the GET check at line 32"
	return err
}

// Negatives: no name says lock and the key is no lock key (a data entry
// deleted when unchanged), and a paused-queue flag cleared with DEL.
func deleteIfUnchanged(ctx context.Context, rdb *goredis.Client, key, old string) error {
	if rdb.Get(ctx, key).Val() == old {
		return rdb.Del(ctx, key).Err()
	}
	return nil
}

func pause(ctx context.Context, rdb *goredis.Client, queue string) error {
	return rdb.SetNX(ctx, "paused:"+queue, time.Now().Unix(), 0).Err()
}

func unpause(ctx context.Context, rdb *goredis.Client, queue string) error {
	return rdb.Del(ctx, "paused:"+queue).Err()
}
