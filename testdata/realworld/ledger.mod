# numary/ledger: Formance's ledger server (v1). pkg/redis's Lock serialises
# writes to a ledger across instances: tryLock takes "ledger-lock-<name>"
# with SetNX, 20 bytes from crypto/rand and the configured duration (a
# minute by default), through the package's own Client interface (SetNX,
# Get, Del; go-redis's *redis.Client in Module). The unlock closure GETs
# the key, compares the value with the token in Go and DELs it in a second
# round trip.
# Held out: expectations written by reading the code before any run.
module github.com/numary/ledger v1.9.0
# Held-out v3, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v3
packages ./pkg/redis

expect LA103 pkg/redis/lock.go:72,62 interface-forwarder the release GETs the lock key (:62), compares it with the token rv in Go (:68) and DELs it in a second round trip (:72), all through the Client interface (implemented by go-redis's client in module.go): the lock can expire and pass to another instance between the GET and the DEL, which then deletes that instance's lock
not LA107 pkg/redis/lock.go:50,45 direct the token is randomString(): 20 bytes from crypto/rand drawn for each tryLock
not LA106 pkg/redis/lock.go:50 direct SetNX with l.lockDuration, which Module sets to a minute when the configuration leaves it 0: the acquire carries its TTL
