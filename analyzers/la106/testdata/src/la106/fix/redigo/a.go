// Package redigo: LA106 fixes on redigo. SETNX + EXPIRE becomes SET NX EX;
// the SETNX reply check (1/0) is rewritten to SET NX's (OK/nil).
package redigo

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

func restock(pool *redis.Pool, sku, token string) error {
	conn := pool.Get()
	defer conn.Close()
	key := "lock:sku:" + sku
	set, err := redis.Int(conn.Do("SETNX", key, token)) // want `SETNX, then a separate EXPIRE`
	if err != nil {
		return err
	}
	if set == 0 {
		return errBusy
	}
	if _, err := conn.Do("EXPIRE", key, 30); err != nil {
		return err
	}
	return nil
}

func errorOnly(conn redis.Conn, token string) error {
	_, err := conn.Do("setnx", "lock:eo", token) // want `SETNX, then a separate PEXPIRE`
	conn.Do("pexpire", "lock:eo", 30000)
	return err
}

func setNX(conn redis.Conn, token string) error {
	if _, err := conn.Do("SET", "lock:set", token, "NX"); err != nil { // want `SET NX without EX/PX/EXAT/PXAT, then a separate EXPIRE`
		return err
	}
	_, _ = conn.Do("EXPIRE", "lock:set", 60)
	return nil
}

func taken(conn redis.Conn, token string) (bool, error) {
	n, err := redis.Int(conn.Do("SETNX", "lock:taken", token)) // want `SETNX, then a separate EXPIRE`
	if err != nil {
		return false, err
	}
	if n != 1 {
		return false, nil
	}
	conn.Do("EXPIRE", "lock:taken", 60)
	return true, nil
}

// Negatives.

func fallsThrough(conn redis.Conn, token string) error {
	set, err := redis.Int(conn.Do("SETNX", "lock:ft", token)) // nofix: the busy branch falls through // want `SETNX, then a separate EXPIRE`
	if err != nil {
		return err
	}
	if set == 0 {
		println("busy")
	}
	conn.Do("EXPIRE", "lock:ft", 30)
	return nil
}

func replyRead(conn redis.Conn, token string) bool {
	reply, _ := conn.Do("SETNX", "lock:rr", token) // nofix: the 1/0 reply is read // want `SETNX, then a separate EXPIRE`
	conn.Do("EXPIRE", "lock:rr", 30)
	return reply == int64(1)
}

func boolReply(conn redis.Conn, token string) (bool, error) {
	ok, err := redis.Bool(conn.Do("SETNX", "lock:bool", token)) // nofix: redis.Bool of OK is an error // want `SETNX, then a separate EXPIRE`
	conn.Do("EXPIRE", "lock:bool", 30)
	return ok, err
}

func countUsed(conn redis.Conn, token string) (int, error) {
	n, err := redis.Int(conn.Do("SETNX", "lock:cu", token)) // nofix: n is returned // want `SETNX, then a separate EXPIRE`
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, errBusy
	}
	conn.Do("EXPIRE", "lock:cu", 30)
	return n, nil
}

func expireAt(conn redis.Conn, token string, at int64) {
	conn.Do("SETNX", "lock:at", token) // nofix: EXPIREAT is a deadline // want `SETNX, then a separate EXPIREAT`
	conn.Do("EXPIREAT", "lock:at", at)
}
