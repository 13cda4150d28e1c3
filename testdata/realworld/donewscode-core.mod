# DoNewsCode/core: a service framework; leader/leaderredis is its Redis
# leader election. Campaign takes the "leader" key with SETNX and the
# hostname as value, then renews it with EXPIRE in a goroutine; Resign
# releases it with a compare-and-delete loaded by SCRIPT LOAD and run with
# EVALSHA, dropping the reply.
# Held out: expectations written by reading the code before any run.
module github.com/DoNewsCode/core v0.12.3
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages ./leader/leaderredis

expect LA107 leader/leaderredis/redis.go:63,62 direct the leader lock's value is os.Hostname(): two drivers on one host (or two processes with the same hostname) write the same token, and Resign's compare cannot tell them apart
expect LA114 leader/leaderredis/redis.go:76 la114-renew the leader key is renewed with a bare EXPIRE every expiration/4 in a goroutine, no owner check: after the lease was lost it extends the next leader's key
expect LA101 leader/leaderredis/redis.go:94,105,95 direct SCRIPT LOAD of GET == ARGV[1] then DEL, run with EVALSHA on the leader key: a compare-and-delete; DELIFEQ exists on the default target valkey-9.0
expect LA108 leader/leaderredis/redis.go:105 direct the EVALSHA release's reply is discarded (`_, err :=`): a 0 (leadership already lost) goes unrecorded
not LA106 leader/leaderredis/redis.go:63 direct SetNX with r.expiration (a minute by default): the acquire carries its TTL
