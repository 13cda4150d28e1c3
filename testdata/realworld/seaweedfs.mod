# seaweedfs: a distributed file system. Its redis3 filer store guards each
# directory's child list with a redsync Mutex on key+"lock", released by bare
# mutex.Unlock() calls; its redis2 filer store deletes an expired entry with a
# Lua delete-if-unchanged of the entry's bytes (data).
# Held out: expectations written by reading the code before any run.
module github.com/seaweedfs/seaweedfs v0.0.0-20261109003541-7506e5f91cd6
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./weed/filer/redis2 ./weed/filer/redis3

expect LA102 weed/filer/redis3/kv_directory_children.go:21 library-call redsync Mutex.Unlock (Lua deleteScript) in insertChild; DELIFEQ exists on the default target valkey-9.0
expect LA108 weed/filer/redis3/kv_directory_children.go:21 library-call `mutex.Unlock()` in a deferred func drops the outcome: a lock lost while the child list was rewritten goes unnoticed
expect LA102 weed/filer/redis3/kv_directory_children.go:57 library-call redsync Mutex.Unlock in removeChild
expect LA108 weed/filer/redis3/kv_directory_children.go:57 library-call `defer mutex.Unlock()` drops the outcome
expect LA102 weed/filer/redis3/kv_directory_children.go:102 library-call redsync Mutex.Unlock in removeChildren
expect LA108 weed/filer/redis3/kv_directory_children.go:102 library-call `defer mutex.Unlock()` drops the outcome
not LA102 weed/filer/redis3/kv_directory_children.go:17,54,99 library-call redsync's acquire (Lock) is SET NX PX
not LA101 weed/filer/redis2/universal_redis_store.go:318,354 data-cad deleteIfUnchangedScript: GET == ARGV[1] then DEL of a filer entry's value, conditioned on the bytes the expiry was decided on: a data compare-and-delete, nothing acquires the key
not LA101 weed/filer/redis2/universal_redis_store.go:302 non-lock-lua existsScript: EXISTS routed to the master
not LA103 weed/filer/redis3/kv_directory_children.go:77,85 direct DEL of an emptied directory list (data, under the lock)
