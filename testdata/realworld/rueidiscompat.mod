# rueidiscompat: rueidis's go-redis-compatible adapter, a client library. Its
# SetNX/MSetNX/Del/Expire/Eval methods are generic wrappers whose keys, values
# and TTLs are the caller's (SetNX with expiration 0 sends the legacy SETNX, as
# go-redis v8 does). Negatives only: a library's generic SETNX and MSETNX.
module github.com/redis/rueidis/rueidiscompat v1.0.79
packages .

not LA106 adapter.go:1253 generic-wrapper Compat.SetNX with expiration 0 sends SETNX, as go-redis v8 does: key, value and expiration are the caller's; a client library's generic wrapper, judged at its callers
not LA106 adapter.go:1255 generic-wrapper Compat.SetNX with KeepTTL sends SET NX KEEPTTL (a new key gets no TTL): the caller asked for it
not LA106 adapter.go:1130,1136,1138 generic-wrapper Compat.MSetNX: MSETNX of the caller's keys and values
not LA103 adapter.go:764 generic-wrapper Compat.Del: DEL of the caller's keys
not LA114 adapter.go:788 generic-wrapper Compat.Expire: EXPIRE of the caller's key
not LA101 adapter.go:3143 generic-wrapper Compat.Eval: EVAL of the caller's script
