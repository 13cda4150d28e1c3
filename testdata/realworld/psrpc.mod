# psrpc: LiveKit's pub/sub RPC. Its Redis bus makes a queue subscription out of
# pub/sub: each subscriber claims a message by SET NX of the payload's hash with
# a math/rand value and a 5 s TTL named lockExpiration; the claim is never
# released and never compared.
# Held out: expectations written by reading the code before any run.
module github.com/livekit/psrpc v0.8.2
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./pkg/bus/redisbus

not LA107 pkg/bus/redisbus/redisbus.go:346 state-flag SET NX of the message hash is a once-only claim (dedup marker) that only expires: nobody releases or compares it, so its math/rand value is no token; the TTL constant is named lockExpiration, but the key is a content hash
not LA106 pkg/bus/redisbus/redisbus.go:346 state-flag the claim has a 5 s TTL
