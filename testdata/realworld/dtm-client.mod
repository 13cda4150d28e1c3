# dtm-labs/client: the dtm client SDK. Its Redis branch barrier makes
# saga/TCC operations idempotent with Lua: barrier records set with EX when
# absent (GET false then SET EX), checked against the compensation's record,
# and an amount adjusted with INCRBY. Nothing is released; the records expire.
# Held out: expectations written by reading the code before any run.
module github.com/dtm-labs/client v1.18.7
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./dtmcli

not LA101 dtmcli/barrier_redis.go:20 state-flag RedisCheckAdjustAmount: barrier records (GET false then SET EX) are once-only idempotency markers that only expire, and the script adjusts a balance with INCRBY; no lock key, nothing acquires and releases
not LA101 dtmcli/barrier_redis.go:59 state-flag RedisQueryPrepared: SET EX of a "rollback" barrier when absent: a marker, not a lock
