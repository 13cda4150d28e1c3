# gotomicro/redis-lock: a teaching-grade lock library (package rlock) over
# go-redis v9, its Lua in //go:embed files (script/lua/*.lua). Client.Lock
# retries an acquire script (GET; SET EX when absent, EXPIRE when the value
# is this holder's), TryLock is a plain SetNX; Lock.Refresh and Lock.Unlock
# are Lua compare-and-EXPIRE and compare-and-DEL whose replies are checked;
# AutoRefresh refreshes on a ticker. Tokens are uuid v4, drawn per acquire.
# Held out: expectations written by reading the code before any run.
module github.com/gotomicro/redis-lock v0.0.3
# Held-out v3, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v3
packages .

expect LA101 lock.go:104,37,36 embedded-lua Lock runs luaLock (script/lua/lock.lua) with EVAL: a scripted acquire (GET == false then SET KEYS[1] ARGV[1] EX, which is SET NX EX in one script) that also re-EXPIREs the key when GET equals ARGV[1] (a compare-and-extend); SET NX EX and SET IFEQ EX are native on the default target valkey-9.0
expect LA101 lock.go:220,34,33 embedded-lua Refresh runs luaRefresh: GET == ARGV[1] then EXPIRE of the lock key, a compare-and-extend; SET IFEQ EX exists on valkey-9.0
expect LA101 lock.go:233,32,31 embedded-lua Unlock runs luaUnlock: GET == ARGV[1] then DEL, a compare-and-delete; DELIFEQ exists on valkey-9.0
not LA108 lock.go:220 direct Refresh examines the reply: anything but 1 returns ErrLockNotHold, and AutoRefresh stops on that error
not LA108 lock.go:233 direct Unlock examines the reply: redis.Nil or a reply other than 1 returns ErrLockNotHold
not LA108 lock.go:104 direct Lock compares the acquire script's reply with "OK" and retries or fails otherwise
not LA107 lock.go:139,138 direct TryLock's value is c.valuer(), uuid.New().String() drawn for this acquire: a random v4 UUID, unique per acquisition
not LA107 lock.go:104,95 direct Lock's value is drawn by c.valuer() (uuid v4) once per Lock call and reused only by that call's own retries, which must recognise their earlier success
not LA106 lock.go:139 token-param SetNX with the caller's expiration: not decidable here
