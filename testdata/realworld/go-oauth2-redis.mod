# go-oauth2/redis: look-alike. The OAuth2 token store over go-redis v9,
# through the package's own clienter interface (go-redis's Get, Exists,
# TxPipeline, Del): tokens written with SET and their TTLs in MULTI, removed
# by a GET of the basic id, a DEL, and an EXISTS check before a second DEL.
# No key is taken with NX and nothing is a lock.
# Held out: expectations written by reading the code before any run.
module github.com/go-oauth2/redis/v4 v4.1.1
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages .

not LA103 redis.go:96 interface-forwarder remove: DEL of a token key (code, access, refresh or basic id) through the clienter interface; token data, nothing takes these keys with NX
not LA103 redis.go:129 interface-forwarder removeToken DELs the basic-id record after EXISTS of the other token returned 0: a check and a DEL in two round trips, of data (the EXISTS result is compared with the constant 0, not with an owner)
not LA106 redis.go:186,197,200,201 direct the token records are plain SETs with their expiries in a MULTI pipeline: no NX, no lock
