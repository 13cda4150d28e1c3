// Package pairedkeys: scripts whose owner check and step name two KEYS,
// which a run may fill with one key (gorlock's keep-alive).
package pairedkeys

import "github.com/gomodule/redigo/redis"

// The owner check reads KEYS[1], the PEXPIRE writes KEYS[2]: by the text a
// step of a key nobody compared; the runs below pass the lock's key for
// both, so it is a compare-and-extend.
var keepAlive = redis.NewScript(2, `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[2], ARGV[2]) else return 0 end`) // want `Lua lock script \(extend\)`

// The same text, run with two different keys: the PEXPIRE renews another
// key than the one compared, no lock step.
var touchOther = redis.NewScript(2, `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[2], ARGV[2]) else return 0 end`)

// Run once with one key and once with two: the runs disagree, the text
// decides.
var mixed = redis.NewScript(2, `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[2]) else return 0 end`)

type Lock struct {
	ResourceName string
	RandomKey    string
	Other        string
	TTL          int
}

func Acquire(c redis.Conn, l *Lock) (bool, error) {
	rep, err := redis.String(c.Do("SET", l.ResourceName, l.RandomKey, "NX", "PX", l.TTL))
	return rep == "OK", err
}

func Refresh(c redis.Conn, l *Lock) (int64, error) {
	return redis.Int64(keepAlive.Do(c, l.ResourceName, l.ResourceName, l.RandomKey, l.TTL))
}

func TouchOther(c redis.Conn, l *Lock) (int64, error) {
	return redis.Int64(touchOther.Do(c, l.ResourceName, l.Other, l.RandomKey, l.TTL))
}

func Mixed(c redis.Conn, l *Lock) error {
	if _, err := mixed.Do(c, l.ResourceName, l.ResourceName, l.RandomKey); err != nil {
		return err
	}
	_, err := mixed.Do(c, l.ResourceName, l.Other, l.RandomKey)
	return err
}
