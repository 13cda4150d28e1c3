# alexedwards/scs/redisstore: the Redis session store of the scs session
# manager, over redigo. Commit SETs "scs:session:<token>" and PEXPIREATs it
# in one MULTI; Delete DELs it; Find GETs it. The session token is the
# cookie's value, not a lock token. A look-alike: DEL and expiry of keys
# named by a token.
# Held out: expectations written by reading the code before any run.
module github.com/alexedwards/scs/redisstore v0.0.0-20251002162104-209de6e426de
# Held-out v3, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v3
packages .

not LA114 redisstore.go:62 state-flag PEXPIREAT of the session key right after its SET in one MULTI: the session's expiry, data, not a lock's extend
not LA103 redisstore.go:76 state-flag Delete's DEL of prefix+token: the token names a session (logout), nothing acquires the key with NX
not LA106 redisstore.go:58 state-flag SET of the session data without NX, its expiry set in the same MULTI: not an acquire
