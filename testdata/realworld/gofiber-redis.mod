# gofiber/storage redis: Fiber's key-value storage driver over go-redis v9.
# Redis only for data: generic Get, Set with TTL, Delete, Reset. A look-alike
# with no lock code.
# Held out: expectations written by reading the code before any run.
module github.com/gofiber/storage/redis/v3 v3.4.3
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages .

not LA103 redis.go:121 generic-wrapper DeleteWithContext: DEL of the caller's key
