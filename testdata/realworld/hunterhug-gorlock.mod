# hunterhug/gorlock: a redigo lock library. Lock takes the key with a raw SET
# NX PX and a UUID v4 per call, an optional keep-alive goroutine extends it
# every 500 ms with a Lua GET-compare-then-PEXPIRE, and UnLock releases it
# with a Lua compare-and-delete, retried; both replies are examined.
# Held out: expectations written by reading the code before any run.
module github.com/hunterhug/gorlock v1.1.3
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages .

expect LA101 gorlock.go:24,471 direct luaDelScript: GET == ARGV[1] then DEL (compare-and-delete) of the lock key taken by the SET NX at :332; DELIFEQ exists on valkey-9.0
expect LA101 gorlock.go:25,508 direct luaExpireScript: GET KEYS[1] == ARGV[1] then PEXPIRE KEYS[2] (both keys are the lock's ResourceName): a compare-and-extend; SET key token IFEQ token PX ttl exists on valkey-9.0
not LA108 gorlock.go:471 direct UnLock examines the release's reply (rep != 1 returns false)
not LA108 gorlock.go:508,545 direct keepAlive examines the extend's reply (rep != 1 marks the lock lost and signals Done)
not LA108 gorlock.go:518 helper-discard after a failed keep-alive the goroutine calls UnLock and drops its bool; with keep-alive on, UnLock hands over to keepAlive, which answers that the keep-alive already failed, and returns (true, nil) without running the release script: the loss was already signalled on the lock's channel
not LA106 gorlock.go:332 direct raw SET NX PX with lockMillSecond+1: the acquire carries its TTL
not LA107 gorlock.go:320,332 token-helper gosession.GetGUID: a random v4 UUID (gofrs/uuid) per lock call; the time-derived fallback runs only when reading randomness fails
