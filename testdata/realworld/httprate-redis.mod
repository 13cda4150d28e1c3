# go-chi/httprate-redis: the Redis counter of chi's httprate rate
# limiter. Look-alike: INCRBY and EXPIRE of a per-window counter in one
# MULTI (a TxPipeline), repeated on every request.
# Held out: expectations written by reading the code before any run.
module github.com/go-chi/httprate-redis v0.6.0
# Held-out v4, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v4
packages .

not LA114 httprateredis.go:140 direct EXPIRE of a rate-limit window counter beside its INCRBY in one transaction: data, not a lock key
