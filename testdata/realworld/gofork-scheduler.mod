# go-fork/providers/scheduler: a gocron v1 provider whose redisLocker
# implements gocron.Locker: SET NX with TTL and the constant value "locked",
# renewed by a bare EXPIRE every two thirds of the TTL in a goroutine, and
# released with a plain DEL.
# Held out: expectations written by reading the code before any run.
module github.com/go-fork/providers/scheduler v0.0.5
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages .

expect LA107 locker.go:86 direct the lock value is the constant "locked": every holder writes the same token (nothing compares it today, which is why the release and renew below cannot be owner-checked)
expect LA114 locker.go:142 la114-renew startRenewLoop renews the lock key with a bare EXPIRE in a goroutine: after the lease is lost it extends the next holder's lock
expect LA103 locker.go:161 direct Unlock releases with a plain DEL of the lock key: deletes whichever holder's lock is there
not LA106 locker.go:86 direct SetNX with options.LockDuration (30 s by default, validated > 0): the acquire carries its TTL
