# digitalocean/go-workers2: a Sidekiq-compatible job queue on go-redis. A
# scheduled or retried job is claimed by whoever ZREMs it first from the
# sorted set (the reply 0 means another worker won), and a processed message
# is acknowledged with an LREM from the worker's in-progress list. No key is
# taken with SET NX, released or renewed: a look-alike of a claim and release.
# Held out: expectations written by reading the code before any run.
module github.com/digitalocean/go-workers2 v0.10.4
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages . ./storage

not LA108 storage/redis.go:88 state-flag DequeueScheduledMessage claims a due job by ZREM from the schedule set and examines the count (0 = taken by another worker); a queue claim, not a lock release
not LA108 storage/redis.go:127 state-flag DequeueRetriedMessage: the same ZREM claim on the retry set, count examined
not LA103 storage/redis.go:195 state-flag AcknowledgeMessage LREMs the processed message from the in-progress list; no lock key, no SET NX anywhere in the module
