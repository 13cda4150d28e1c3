// Package scriptload: scripts loaded with SCRIPT LOAD (go-redis
// ScriptLoad) and run by the SHA1 it returns (EvalSha), the SHA kept in a
// struct field set in the constructor, in a package variable or in a local.
package scriptload

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Positives.

// Leader keeps the SHA in a field: empty in the constructor, loaded on
// first use (DoNewsCode/core's leader election).
type Leader struct {
	client redis.UniversalClient
	sha    string
}

func NewLeader(c redis.UniversalClient) *Leader { return &Leader{client: c, sha: ""} }

func (l *Leader) Resign(ctx context.Context, host string) error {
	if l.sha == "" {
		var err error
		l.sha, err = l.client.ScriptLoad(ctx, `if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`).Result() // want `^Lua lock script \(release\): use DELIFEQ key token instead$`
		if err != nil {
			return err
		}
	}
	_, err := l.client.EvalSha(ctx, l.sha, []string{"leader"}, host).Result()
	return err
}

const extendSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`

// A package variable loaded in init with Val().
var extendSHA string

func load(ctx context.Context, rdb *redis.Client) {
	extendSHA = rdb.ScriptLoad(ctx, extendSrc).Val() // want `^Lua lock script \(extend\): use SET key token IFEQ token PX ttl instead$`
}

func extend(ctx context.Context, rdb *redis.Client, token string) {
	rdb.EvalSha(ctx, extendSHA, []string{"lock:job"}, token, 30000)
}

// A local SHA, from the command kept in a variable.
func acquire(ctx context.Context, rdb *redis.Client, token string) {
	cmd := rdb.ScriptLoad(ctx, `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`) // want `^Lua lock script \(acquire\): use SET key token NX PX ttl instead$`
	sha, err := cmd.Result()
	if err != nil {
		return
	}
	rdb.EvalSha(ctx, sha, []string{"lock:job"}, token, 30000)
}

// Negatives.

// A data script loaded and run by its SHA: a rate limiter.
var limitSHA string

func loadLimiter(ctx context.Context, rdb *redis.Client) {
	limitSHA = rdb.ScriptLoad(ctx, `local n = redis.call("INCR", KEYS[1]) if n == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end return n`).Val()
}

func hit(ctx context.Context, rdb *redis.Client) {
	rdb.EvalSha(ctx, limitSHA, []string{"hits"}, 1000)
}

// A compare-and-set of data (a version check), loaded and run by its SHA.
type Config struct {
	rdb *redis.Client
	cas string
}

func NewConfig(ctx context.Context, rdb *redis.Client) *Config {
	return &Config{rdb: rdb, cas: rdb.ScriptLoad(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[2]) return 1 end return 0`).Val()}
}

func (c *Config) Swap(ctx context.Context, old, v string) {
	c.rdb.EvalSha(ctx, c.cas, []string{"cfg"}, old, v)
}

// A SHA the caller passes, and one field given two different scripts:
// which script runs is not known here.
type Runner struct {
	rdb *redis.Client
	sha string
}

func NewRunner(rdb *redis.Client, sha string) *Runner { return &Runner{rdb: rdb, sha: sha} }

func (r *Runner) Run(ctx context.Context, key, token string) {
	r.rdb.EvalSha(ctx, r.sha, []string{key}, token)
}
