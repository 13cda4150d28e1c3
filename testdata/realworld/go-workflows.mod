# go-workflows: a durable-workflow engine whose Redis backend keeps its Lua in
# an embedded directory (//go:embed scripts, read with fs.ReadFile) plus two
# inline scripts; work items are leased with Redis streams (XCLAIM), not lock
# keys. Negatives only.
module github.com/cschleiden/go-workflows v1.2.0
packages ./backend/redis

not LA101 backend/redis/redis.go:100 embedded-lua scripts/*.lua (create/complete workflow task, future events, expire instance) are data scripts (their SETNX of an instance key is a write-once record, never released), read from an embed.FS
not LA101 backend/redis/delete.go:18 non-lock-lua deleteCmd: deletes an instance's keys
not LA101 backend/redis/events.go:38 non-lock-lua addPayloadsCmd: HSETNX of event payloads (write-once data, never released)
