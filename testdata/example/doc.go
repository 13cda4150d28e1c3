// Package orders is lockaudit's bundled example: a small order service whose
// packages each take a distributed lock on Valkey with a different client,
// some correctly and some with the bugs lockaudit's rules find. Every
// intentional bug is marked with the rule that reports it; the rest of the
// code is meant to be clean, so a finding anywhere else is a false positive.
//
//	checkout   go-redis v9     the reference native lock: no findings
//	billing    valkey-go       Lua release script, ignored DELIFEQ reply, ignored WAIT; Refund is native and clean
//	inventory  redigo          hostname token, plain DEL, SETNX+EXPIRE, PEXPIRE extend
//	shipping   go-redis v9     IFEQ without TTL, fence outside MULTI, unfenced and <= writes
//	reports    redsync, bsm/redislock   lock libraries that run Lua
//
// Run `lockaudit vet -C testdata/example ./...` from the repository root.
package orders
