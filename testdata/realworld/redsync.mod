# redsync: the Redlock library itself, analysed for a fleet whose oldest node is
# Valkey 8.1 (target-dependent advice): SET IFEQ PX exists there, DELIFEQ does
# not (Valkey 9.0), so the Lua compare-and-delete is the only correct release
# and must not be reported, while the extend scripts have a native form.
module github.com/go-redsync/redsync/v4 v4.18.1
target valkey-8.1
packages . ./redis/goredis/v9 ./redis/redigo

expect LA101 scripts.go:26 target touchScript: GET == ARGV[1] then PEXPIRE; SET key token IFEQ token PX ttl exists on valkey-8.1
expect LA101 scripts.go:16 target touchWithSetNXScript: compare-and-extend or re-acquire with SET NX PX, both native on valkey-8.1
not LA101 scripts.go:5 target deleteScript: compare-and-delete (the value compared through the Lua local val); valkey-8.1 has no DELIFEQ (9.0) nor DELEX (9.2), so this Lua is the correct release for the target; at most an info finding naming Valkey 9.0
