# adjust/rmq: a message queue on Redis lists (go-redis v9 through its own
# RedisClient interface). Each connection keeps a heartbeat key alive with
# SET "1" and a one-minute TTL every second and DELs it when it stops; a
# cleaner moves the unacked deliveries of connections whose heartbeat
# expired. A look-alike: a liveness lease with a constant value and a plain
# DEL that is no lock.
# Held out: expectations written by reading the code before any run.
module github.com/adjust/rmq/v5 v5.2.0
# Held-out v3, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v3
packages .

not LA107 connection.go:133 state-flag updateHeartbeat SETs the connection's own heartbeat key (named after the connection) to the constant "1" with a TTL, without NX: a liveness mark only this connection writes, not a contended lock
not LA103 connection.go:332 state-flag stopHeartbeat DELs the connection's own heartbeat key: no one else writes that key
not LA103 queue.go:538,541 state-flag closeInStaleConnection DELs a dead connection's unacked list and consumer set: data
not LA103 redis_wrapper.go:20 generic-wrapper RedisWrapper.Del: the client wrapper's generic DEL
