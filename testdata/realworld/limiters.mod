# mennanov/limiters: distributed rate limiters. Their state backends keep
# versioned state in Redis (a Lua version check, then INCR, PEXPIRE, SET PX),
# and they serialise updates with a DistLocker interface that Redis (a redsync
# v4.8.1 Mutex), etcd, Consul, ZooKeeper and a no-op type implement; callers log
# a failed Unlock.
# Held out: expectations written by reading the code before any run.
module github.com/mennanov/limiters v1.2.2
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages .

expect LA102 locks.go:141 library-call LockRedis.Unlock releases with redsync's Lua deleteScript; DELIFEQ exists on the default target valkey-9.0
not LA108 locks.go:141 library-call Unlock examines ok and err (redsync v4.8.1 reports a taken lock as ErrNodeTaken)
not LA102 locks.go:135 library-call redsync's acquire is SET NX PX, not Lua
not LA108 tokenbucket.go:80 interface-forwarder DistLocker.Unlock's error (LockRedis among its implementations) is logged in the deferred call
not LA108 leakybucket.go:76 interface-forwarder DistLocker.Unlock's error is logged
not LA108 concurrent_buffer.go:43 interface-forwarder DistLocker.Unlock's error is logged
not LA101 tokenbucket.go:438 data-cad versioned state write of a token bucket: version check (>), INCR, PEXPIRE of the version key, SET PX of state: an optimistic data CAS, not an owner-checked extend
not LA101 leakybucket.go:365 data-cad the same versioned state write for the leaky bucket
