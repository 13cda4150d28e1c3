// Package redigo: LA108 on redigo.
package redigo

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

var unlock = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// The same compare-and-delete with no lock evidence: data deleted only if
// unchanged (dapr's state store deletes an entry only if its ETag matches).
var dropIfUnchanged = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func positives(c redis.Conn, key, token string) error {
	c.Do("DELIFEQ", key, token)                                                    // want `^reply of DELIFEQ key is discarded`
	if _, err := c.Do("SET", key, token, "IFEQ", token, "PX", 30000); err != nil { // want `^only the error of SET key IFEQ is checked, but nil \(lock lost\) is no error`
		return err
	}
	unlock.Do(c, key, token)                               // want `^reply of the Lua release script \(EVALSHA key\) is discarded`
	_, err := redis.Int(c.Do("DELEX", key, "IFEQ", token)) // want `^only the error of DELEX key IFEQ is checked`
	return err
}

func negatives(c redis.Conn, key, token string) error {
	dropIfUnchanged.Do(c, key, token)
	n, err := redis.Int(c.Do("DELIFEQ", key, token))
	if err == nil && n == 0 {
		return errors.New("lost")
	}
	reply, err := c.Do("SET", key, token, "IFEQ", token, "PX", 30000)
	if err == nil && reply == nil {
		return errors.New("lost")
	}
	c.Do("DELEX", key) // no condition: LA112's
	return err
}

// A release reply compared, as an interface{}, with the untyped constant 0
// (an int): redigo's integer replies are int64, so it is never equal and a
// lost lock counts as released (hjr265/redsync.go's Unlock).
func releasedUntyped(c redis.Conn, key, token string) bool {
	status, err := unlock.Do(c, key, token)
	if err != nil {
		return false
	}
	if status == 0 { // want `^reply of the Lua release script \(EVALSHA key\) == 0 is never true \(the reply holds an int64\): use redis\.Int64\(reply, err\) or compare with int64\(0\)$`
		return false
	}
	return true
}

// The same with a constant of another integer type: the advice converts
// its value, not the conversion.
func releasedInt32(c redis.Conn, key, token string) bool {
	status, err := unlock.Do(c, key, token)
	return err == nil && status != int32(0) // want `^reply of the Lua release script \(EVALSHA key\) != int32\(0\) is always true \(the reply holds an int64\): use redis\.Int64\(reply, err\) or compare with int64\(0\)$`
}

func releasedTyped(c redis.Conn, key, token string) bool {
	status, err := unlock.Do(c, key, token)
	if err != nil || status == int64(0) {
		return false
	}
	return true
}

func releasedConverted(c redis.Conn, key, token string) bool {
	status, err := unlock.Do(c, key, token)
	n, err := redis.Int(status, err)
	if err != nil || n == 0 {
		return false
	}
	return true
}

// The same comparison after a compare-and-delete of data (no lock
// evidence): no lock is lost.
func droppedUntyped(c redis.Conn, key, token string) bool {
	status, err := dropIfUnchanged.Do(c, key, token)
	return err == nil && status != 0
}
