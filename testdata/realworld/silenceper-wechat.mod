# silenceper/wechat: the WeChat SDK. Its credential package refreshes access
# tokens and JS-API tickets under an in-process sync.Mutex named ...Lock:
# GET from the cache, lock, GET again, fetch from WeChat, SETEX the token with
# a TTL. The cache's Redis driver SETEXes and DELs keys for it. Redis holds a
# "token" under a key whose writer holds a "lock", but nothing takes a Redis
# lock: a look-alike of a token written with a TTL under a lock.
# Held out: expectations written by reading the code before any run.
module github.com/silenceper/wechat/v2 v2.1.10
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages ./cache ./credential

not LA107 credential/default_access_token.go:94 state-flag the value written is WeChat's access token (cached data) under an in-process sync.Mutex; no SET NX, no Redis lock, no owner token
not LA107 credential/default_access_token.go:159 state-flag GetStableAccessTokenContext: the same cached token write under the process mutex
not LA107 credential/default_access_token.go:255 state-flag the work-account access token cached the same way
not LA107 credential/default_js_ticket.go:76 state-flag a JS-API ticket cached under the process mutex
not LA107 credential/work_js_ticket.go:86 state-flag a work JS-API ticket cached under the process mutex
not LA106 cache/redis.go:86 generic-wrapper Redis.SetContext is the cache's SETEX of the caller's key (a TTL, no NX)
not LA103 cache/redis.go:108 generic-wrapper Redis.DeleteContext is the cache's generic DEL of the caller's key
