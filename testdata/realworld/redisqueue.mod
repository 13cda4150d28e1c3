# robinjoseph08/redisqueue: a Redis Streams job queue (go-redis v7). A
# consumer reclaims messages another consumer left pending past the
# visibility timeout with XCLAIM MIN-IDLE (a takeover of stale work, the
# shape of a lock takeover) and acknowledges processed messages with XACK,
# checking only the error. No key is locked: a look-alike of a takeover and
# an error-only release.
# Held out: expectations written by reading the code before any run.
module github.com/robinjoseph08/redisqueue/v2 v2.1.0
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages .

not LA114 consumer.go:279 getset-acquire reclaim: XCLAIM with MIN-IDLE takes over a message whose consumer went quiet; a consumer-group claim, not an EXPIRE of a lock key
not LA108 consumer.go:392 helper-discard XACK of a processed message with only its error checked: an acknowledgement, not a lock release
not LA108 consumer.go:300 helper-discard XACK of a message that no longer exists, after a failed claim; error checked, no lock
