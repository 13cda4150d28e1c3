// Package redis is a stub of github.com/go-redis/redis/v9 (v9.0.0-rc.2, the
// v9 release candidates before the module moved to redis/go-redis; its
// API is v8's, copied from the v8 stub) for
// lockaudit's analyzer tests: only what the tests call, with the real
// signatures and receiver shapes: commands on the embedded unexported
// cmdable func type, but Do on *Client/*ClusterClient/*Pipeline, and none
// of v9's IFEQ/DELEX/WAITAOF/EVAL_RO helpers; SetNX(..., 0) sends SETNX.
package redis
