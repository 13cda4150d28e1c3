# traefik v3: the reverse proxy's distributed rate limiter keeps a token bucket
# per source in a Redis hash, updated by one Lua script run through go-redis
# (NewScript, Run).
# Held out: expectations written by reading the code before any run.
module github.com/traefik/traefik/v3 v3.4.5
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./pkg/middlewares/ratelimiter

not LA101 pkg/middlewares/ratelimiter/lua.go:66,21 non-lock-lua AllowTokenBucketScript: a token bucket in a hash (HGETALL, HSET, EXPIRE), no owner check, no lock key
