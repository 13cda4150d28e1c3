# go-session/redis: look-alike. A session store over go-redis v9 through the
# package's own clienter interface (go-redis's Get, Set, Expire, Exists,
# TxPipeline, Del): Update GETs the session and then EXPIREs it in a second
# round trip, Delete checks EXISTS and then DELs, Refresh SETs the new id and
# DELs the old one in MULTI. Session data; no NX anywhere.
# Held out: expectations written by reading the code before any run.
module github.com/go-session/redis/v3 v3.2.1
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages .

not LA114 redis.go:118 interface-forwarder Update EXPIREs the session key after a GET in an earlier round trip: the GET is compared only with "" (is the session there), not with an owner's token, and the key is session data that nothing takes with NX
not LA103 redis.go:138 interface-forwarder Delete DELs the session key after an EXISTS check: session data, no lock
not LA103 redis.go:160 direct Refresh DELs the old session id in the MULTI that SETs the new one: a rename of session data
not LA106 redis.go:159,255 direct sessions are plain SETs with their expiry: no NX
