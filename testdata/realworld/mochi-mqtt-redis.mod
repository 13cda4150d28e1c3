# mochi-mqtt/server: an MQTT broker. Its Redis storage hook persists
# clients, subscriptions, retained and in-flight messages as fields of a few
# hashes: HSET when a client connects or a QoS message goes in flight, HDEL
# when it disconnects, is acknowledged or expires (OnClientExpired,
# OnRetainedExpired). In-flight-then-acknowledged and expired-then-deleted
# are the words of a lease; the calls are data in hash fields: a look-alike.
# Held out: expectations written by reading the code before any run.
module github.com/mochi-mqtt/server/v2 v2.7.9
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages ./hooks/storage/redis

not LA103 hooks/storage/redis/redis.go:353 generic-wrapper OnQosComplete HDELs an acknowledged in-flight message from the inflight hash (data, not a lock; HDEL of a field, no SET NX)
not LA103 hooks/storage/redis/redis.go:407 state-flag OnClientExpired HDELs an expired client's record
not LA103 hooks/storage/redis/redis.go:394 state-flag OnRetainedExpired HDELs an expired retained message
not LA103 hooks/storage/redis/redis.go:217 state-flag OnDisconnect HDELs the client's record
