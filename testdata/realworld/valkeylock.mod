# valkeylock (valkey-go): the lock library of the Valkey Go client, every step
# in Lua. Positives: acquire, extend and release scripts. Known misses: the
# force-acquire scripts (a plain SET PX, indistinguishable by text from a cache
# write) and a token drawn from math/rand/v2 (runtime-seeded ChaCha8: unique in
# practice, weak only by the letter of LA107).
module github.com/valkey-io/valkey-go v1.0.79
packages ./valkeylock

expect LA101 valkeylock/lock.go:434 direct delkey: GET == ARGV[1] then DEL
expect LA101 valkeylock/lock.go:435 direct extend: GET == ARGV[1] then PEXPIREAT (a local holds the reply)
expect LA101 valkeylock/lock.go:436 direct acqms: SET NX PX, then GET for client-side tracking
expect LA101 valkeylock/lock.go:437 direct acqat: SET NX PXAT, then GET
miss LA101 valkeylock/lock.go:438 direct fcqms (ForceWithContext): SET PX without NX takes the lock over; a lock step only because of the library around it
miss LA101 valkeylock/lock.go:439 direct fcqat: the same with PXAT
not LA107 valkeylock/lock.go:257,139,163,165,169,171 token-helper the token comes from util.RandomBytes, built on math/rand/v2's global generator: the runtime's ChaCha8, seeded by the operating system, 192 bits, unique per acquisition; strong by the catalog's randomness model (LA107), which once named all math/rand output weak
miss LA108 valkeylock/lock.go:293 helper-discard _ = m.script(ctx, delkey, ...) drops the release's outcome, but the library cancels the lock's context on loss anyway
