// Package radix: LA108 on radix v3 and v4 (the reply goes into the
// action's receiver).
package radix

import (
	"context"
	"errors"

	"github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
)

var unlock = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// The same compare-and-delete with no lock evidence: data deleted only if
// unchanged (dapr's state store deletes an entry only if its ETag matches).
var dropIfSame = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func positives(c radix.Client, c4 radix4.Client, ctx context.Context, key, token string) error {
	c.Do(radix.Cmd(nil, "DELIFEQ", key, token)) // want `^reply of DELIFEQ key is discarded`
	c.Do(unlock.Cmd(nil, key, token))           // want `^reply of the Lua release script \(EVALSHA key\) is discarded`
	var n int
	if err := c.Do(radix.Cmd(&n, "DELIFEQ", key, token)); err != nil { // want `^only the error of DELIFEQ key is checked`
		return err
	}
	return c4.Do(ctx, radix4.Cmd(nil, "DELEX", key, "IFEQ", token)) // want `^only the error of DELEX key IFEQ is checked`
}

func negatives(c radix.Client, key, token string) error {
	c.Do(dropIfSame.Cmd(nil, key, token)) // no lock evidence: data
	var n int
	if err := c.Do(radix.Cmd(&n, "DELIFEQ", key, token)); err != nil {
		return err
	}
	if n == 0 {
		return errors.New("lost")
	}
	return nil
}

// An action sent elsewhere: its reply cannot be followed here.
func queued(key, token string) radix.CmdAction {
	return radix.Cmd(nil, "DELIFEQ", key, token)
}

// In a MULTI the replies come back in EXEC's receiver.
func txDropped(c radix.Client, key, token string) error {
	return c.Do(radix.WithConn(key, func(conn radix.Conn) error {
		conn.Do(radix.Cmd(nil, "MULTI"))
		conn.Do(radix.Cmd(nil, "DELIFEQ", key, token)) // want `^only the error of DELIFEQ key is checked`
		return conn.Do(radix.Cmd(nil, "EXEC"))
	}))
}

func txRead(c radix.Client, key, token string) error {
	var replies []int
	err := c.Do(radix.WithConn(key, func(conn radix.Conn) error {
		conn.Do(radix.Cmd(nil, "MULTI"))
		conn.Do(radix.Cmd(nil, "DELIFEQ", key, token))
		return conn.Do(radix.Cmd(&replies, "EXEC"))
	}))
	if err == nil && replies[0] == 0 {
		return errors.New("lost")
	}
	return err
}
