# kataras/iris: the web framework's Redis session database and JWT blocklist.
# The session database has methods named Acquire and Release: Acquire checks
# EXISTS, writes the session id into a hash with HSET and then sets its TTL
# with EXPIRE; Release DELs the session hash; OnUpdateExpiration re-EXPIREs
# it. The blocklist SETEXes revoked tokens and DELs expired ones. No SET NX,
# no lock: look-alikes whose names say acquire and release.
# Held out: expectations written by reading the code before any run.
module github.com/kataras/iris/v12 v12.2.11
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages ./sessions/sessiondb/redis ./middleware/jwt/blocklist/redis

not LA106 sessions/sessiondb/redis/database.go:145,148 state-flag Database.Acquire creates a session: EXISTS, then HSET of the session id, then EXPIRE; a session record, not a set-if-absent lock (no NX, nothing is kept out)
not LA114 sessions/sessiondb/redis/driver_goredis.go:184 generic-wrapper GoRedisDriver.UpdateTTL re-EXPIREs a session hash (sliding session lifetime); no lock key
not LA103 sessions/sessiondb/redis/driver_goredis.go:206 generic-wrapper GoRedisDriver.Delete DELs the session hash when no field is named; Database.Release (a session destroy) reaches it
not LA103 middleware/jwt/blocklist/redis/blocklist.go:146 generic-wrapper Blocklist.Del removes an expired token from the blocklist
