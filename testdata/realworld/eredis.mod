# ego-component/eredis: the Redis component of the ego framework. It carries a
# copy of bsm/redislock (lockClient: SET NX PX with a crypto/rand token, Lua
# refresh, release and PTTL) next to generic SetNX/SetNx/Del/Expire wrappers of
# the same client, and ecronlock, a cron job lock on "ecronlock:" keys built on
# that lock client.
# Held out: expectations written by reading the code before any run.
module github.com/ego-component/eredis v1.0.3
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages . ./ecronlock

expect LA101 lock.go:15 direct luaRefresh: GET == ARGV[1] then PEXPIRE (compare-and-extend); SET IFEQ PX exists on the default target valkey-9.0
expect LA101 lock.go:16 direct luaRelease: GET == ARGV[1] then DEL (compare-and-delete); DELIFEQ exists on valkey-9.0
not LA101 lock.go:17 direct luaPTTL: an owner-checked PTTL read, no lock step
not LA106 comopnent_cmds.go:77,145 generic-wrapper the component's generic SetNX/SetNx wrappers: key, value and expiry are the caller's
not LA107 comopnent_cmds.go:77,145 generic-wrapper generic SetNX wrappers, value is a parameter
not LA103 comopnent_cmds.go:261 generic-wrapper generic Del(key) wrapper; nothing in the module releases a lock through it
not LA114 comopnent_cmds.go:325 generic-wrapper generic Expire(key) wrapper
not LA107 lock.go:79 direct the lock token is 16 bytes from crypto/rand per Obtain (randomToken)
not LA108 ecronlock/redislock.go:51 direct Unlock logs a failed release (ErrLockNotHeld when the lock was lost): the outcome is examined and recorded
not LA108 ecronlock/redislock.go:66 direct Refresh returns the refresh's error (ErrNotObtained when lost) to the cron runner
