# go-redis/cache: a cache with an optional "set only if absent" mode (SetNX,
# always with a TTL here) and a generic delete. Negatives only: generic
# wrappers whose keys and values are the caller's data.
module github.com/go-redis/cache/v9 v9.0.0
packages .

not LA106 cache.go:181 generic-wrapper Item.SetNX stores a cache entry only if absent, with the item's TTL (ttl 0 returns at line 174 before any SET)
not LA107 cache.go:181 generic-wrapper the value is the marshalled cache entry
not LA103 cache.go:318 generic-wrapper Delete of a cache entry (key is a parameter)
