// Package redis is a stub of github.com/go-redis/redis/v8 (v8.11.5) for
// lockaudit's analyzer tests: only what the tests call, with the real
// signatures and receiver shapes: commands on the embedded unexported
// cmdable func type, but Do on *Client/*ClusterClient/*Pipeline, and none
// of v9's IFEQ/DELEX/WAITAOF/EVAL_RO helpers; SetNX(..., 0) sends SETNX.
package redis
