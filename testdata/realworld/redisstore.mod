# rbcervilla/redisstore: a gorilla/sessions store over go-redis v9. Redis only
# for data: sessions saved with SET and a TTL, deleted with DEL. A look-alike
# with no lock code.
# Held out: expectations written by reading the code before any run.
module github.com/rbcervilla/redisstore/v9 v9.0.0
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages .

not LA103 redisstore.go:162 state-flag DEL of a session key, not a lock
