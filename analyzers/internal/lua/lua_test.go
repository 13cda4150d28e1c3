package lua

import (
	"fmt"
	"strings"
	"testing"
)

// Real lock scripts, copied verbatim from the libraries (versions in the
// comments), and a negative corpus of common non-lock scripts.
var cases = []struct {
	name string
	src  string
	want Step
}{
	// github.com/go-redsync/redsync/v4 v4.18.1 scripts.go
	{"redsync deleteScript", `
	local val = redis.call("GET", KEYS[1])
	if val == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	elseif val == false then
		return -1
	else
		return 0
	end
`, Release},
	{"redsync touchWithSetNXScript", `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	elseif redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then
		return 1
	else
		return 0
	end
`, Extend | Acquire},
	{"redsync touchScript", `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	else
		return 0
	end
`, Extend},

	// github.com/bsm/redislock v0.9.4 redislock.go
	{"redislock luaRefresh", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`, Extend},
	{"redislock luaRelease", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`, Release},
	{"redislock luaPTTL (owner-checked read, no step)", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pttl", KEYS[1]) else return -3 end`, 0},
	{"redislock luaObtain", `
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[3]) then return redis.status_reply("OK") end

local offset = tonumber(ARGV[2])
if redis.call("getrange", KEYS[1], 0, offset-1) == string.sub(ARGV[1], 1, offset) then return redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[3]) end
`, Acquire},

	// github.com/valkey-io/valkey-go v1.0.79 valkeylock/lock.go (rueidislock is byte-identical)
	{"valkeylock delkey", `if redis.call("GET",KEYS[1]) == ARGV[1] then return redis.call("DEL",KEYS[1]) end;return 0`, Release},
	// asynq deleteAllCmd: each listed task's uniqueness lock is deleted only
	// while it still holds that task's id (the owner, read from the server).
	{"owner id of a listed entry, key from a hash field", `
local ids = redis.call("ZRANGE", KEYS[1], 0, -1)
for _, id in ipairs(ids) do
	local task_key = ARGV[1] .. id
	local unique_key = redis.call("HGET", task_key, "unique_key")
	if unique_key and unique_key ~= "" and redis.call("GET", unique_key) == id then
		redis.call("DEL", unique_key)
	end
	redis.call("DEL", task_key)
end
redis.call("DEL", KEYS[1])
return table.getn(ids)`, Release},
	{"valkeylock extend", `if redis.call("GET",KEYS[1]) == ARGV[1] then local r = redis.call("PEXPIREAT",KEYS[1],ARGV[2]);redis.call("GET",KEYS[1]);return r end;return 0`, Extend},
	{"valkeylock acqms", `local r = redis.call("SET",KEYS[1],ARGV[1],"NX","PX",ARGV[2]);redis.call("GET",KEYS[1]);return r`, Acquire},
	{"valkeylock acqat", `local r = redis.call("SET",KEYS[1],ARGV[1],"NX","PXAT",ARGV[2]);redis.call("GET",KEYS[1]);return r`, Acquire},
	{"valkeylock fcqms (force: plain SET PX)", `local r = redis.call("SET",KEYS[1],ARGV[1],"PX",ARGV[2]);redis.call("GET",KEYS[1]);return r`, 0},
	{"valkeylock fcqat (force: plain SET PXAT)", `local r = redis.call("SET",KEYS[1],ARGV[1],"PXAT",ARGV[2]);redis.call("GET",KEYS[1]);return r`, 0},

	// redis-py redis/lock.py (LUA_RELEASE_SCRIPT, LUA_EXTEND_SCRIPT, LUA_REACQUIRE_SCRIPT)
	{"redis-py release", `
        local token = redis.call('get', KEYS[1])
        if not token or token ~= ARGV[1] then
            return 0
        end
        redis.call('del', KEYS[1])
        return 1
    `, Release},
	{"redis-py extend", `
        local token = redis.call('get', KEYS[1])
        if not token or token ~= ARGV[1] then
            return 0
        end
        local expiration = redis.call('pttl', KEYS[1])
        if not expiration then
            expiration = 0
        end
        if expiration < 0 then
            return 0
        end

        local newttl = ARGV[2]
        if ARGV[3] == "0" then
            newttl = ARGV[2] + expiration
        end
        redis.call('pexpire', KEYS[1], newttl)
        return 1
    `, Extend},
	{"redis-py reacquire", `
        local token = redis.call('get', KEYS[1])
        if not token or token ~= ARGV[1] then
            return 0
        end
        redis.call('pexpire', KEYS[1], ARGV[2])
        return 1
    `, Extend},

	// Other spellings of lock steps.
	{"aliases and comments", `
		-- release the lock if we still own it
		local key, token = KEYS[1], ARGV[1]
		--[[ compare first ]]
		if server.call('GET', key) == token then
			return server.call('UNLINK', key)
		end
		return 0`, Release},
	{"argv on the left", `if ARGV[1] == redis.call("get", KEYS[1]) then return redis.call("expire", KEYS[1], ARGV[2]) end return 0`, Extend},
	{"extend with SET IFEQ-like SET PX of the same token", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[2]) end return 0`, Extend},
	{"pcall", `if redis.pcall("get", KEYS[1]) == ARGV[1] then return redis.pcall("del", KEYS[1]) end return 0`, Release},
	{"setnx then pexpire", `if redis.call("setnx", KEYS[1], ARGV[1]) == 1 then redis.call("pexpire", KEYS[1], ARGV[2]) return 1 end return 0`, Acquire},
	{"acquire with fence", `
		if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
			return redis.call("incr", KEYS[2])
		end
		return nil`, Acquire | Fence},

	// Keys and tokens held in locals (issue 10).
	{"key read from a hash into a local", `
		local k = redis.call("HGET", KEYS[1], "f")
		if redis.call("GET", k) == ARGV[1] then
			redis.call("DEL", k)
		end`, Release},
	{"GET reply in a local", `local v = redis.call("GET", KEYS[1]); if v == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, Release},
	{"key and token in separate locals", `
		local key = KEYS[1]
		local token = ARGV[1]
		if redis.call("GET", key) == token then
			return redis.call("PEXPIRE", key, ARGV[2])
		end
		return 0`, Extend},
	{"chained locals", `
		local k = KEYS[1]
		local lockKey = k
		local t = ARGV[1]
		local cur = redis.call("get", lockKey)
		if cur ~= t then return 0 end
		return redis.call("del", k)`, Release},
	{"key built from an argument", `
		local key = "lock:" .. ARGV[1]
		if redis.call("GET", key) == ARGV[2] then return redis.call("DEL", key) end
		return 0`, Release},
	{"comparison kept in a local", `
		local owned = redis.call("GET", KEYS[1]) == ARGV[1]
		if owned then return redis.call("UNLINK", KEYS[1]) end
		return 0`, Release},
	{"acquire through locals", `
		local key, token, ttl = KEYS[1], ARGV[1], ARGV[2]
		return redis.call("SET", key, token, "NX", "PX", ttl)`, Acquire},
	{"extend by re-setting the token held in a local", `
		local t = ARGV[1]
		if redis.call("GET", KEYS[1]) == t then return redis.call("SET", KEYS[1], t, "PX", ARGV[2]) end
		return 0`, Extend},
	{"tostring of the token", `if redis.call("GET", KEYS[1]) == tostring(ARGV[1]) then return redis.call("DEL", KEYS[1]) end return 0`, Release},
	{"every key, by index", `
		for i = 1, #KEYS do
			if redis.call("GET", KEYS[i]) == ARGV[1] then redis.call("DEL", KEYS[i]) end
		end
		return 1`, Release},
	{"every key, by ipairs", `
		for _, key in ipairs(KEYS) do
			if redis.call("GET", key) == ARGV[1] then redis.call("DEL", key) end
		end
		return 1`, Release},
	{"elseif sees the value from before the if", `
		local k = KEYS[1]
		if ARGV[2] == "skip" then
			k = "other"
		elseif redis.call("GET", k) == ARGV[1] then
			return redis.call("DEL", k)
		end
		return 0`, Release},
	{"a local in a nested block", `
		if ARGV[2] == "1" then
			local key = KEYS[1]
			if redis.call("GET", key) == ARGV[1] then return redis.call("DEL", key) end
		end
		return 0`, Release},
	{"setnx then pexpire through a local", `
		local key = KEYS[1]
		if redis.call("SETNX", key, ARGV[1]) == 1 then redis.call("PEXPIRE", key, ARGV[2]) return 1 end
		return 0`, Acquire},

	// Locals that do not hold the caller's key or token: no lock step.
	{"constant key in a local", `
		local k = "config"
		if redis.call("GET", k) == ARGV[1] then return redis.call("DEL", k) end
		return 0`, 0},
	{"key read from a constant key", `
		local k = redis.call("HGET", "routes", "primary")
		if redis.call("GET", k) == ARGV[1] then redis.call("DEL", k) end`, 0},
	{"constant token in a local", `
		local token = "1"
		if redis.call("GET", KEYS[1]) == token then return redis.call("DEL", KEYS[1]) end
		return 0`, 0},
	{"compared with a value read by a loop over a constant list", `
		for _, id in ipairs({"a", "b"}) do
			if redis.call("GET", KEYS[1]) == id then redis.call("DEL", KEYS[1]) end
		end`, 0},
	{"compared with a listed entry's id, another key deleted", `
		for _, id in ipairs(redis.call("ZRANGE", KEYS[1], 0, -1)) do
			if redis.call("GET", KEYS[2]) == id then redis.call("DEL", ARGV[1] .. id) end
		end`, 0},
	{"compared with stored data, not the caller's token", `
		local expected = redis.call("GET", KEYS[2])
		if redis.call("GET", KEYS[1]) == expected then return redis.call("DEL", KEYS[1]) end
		return 0`, 0},
	{"token computed from an argument", `
		local n = tonumber(ARGV[1])
		if redis.call("GET", KEYS[1]) == n then return redis.call("DEL", KEYS[1]) end
		return 0`, 0},
	{"key reassigned before the delete", `
		local key = KEYS[1]
		if redis.call("GET", key) == ARGV[1] then
			key = KEYS[2]
			redis.call("DEL", key)
		end`, 0},
	{"reply reassigned before the comparison", `
		local v = redis.call("GET", KEYS[1])
		v = redis.call("HGET", KEYS[1], "owner")
		if v == ARGV[1] then redis.call("DEL", KEYS[1]) end`, 0},
	{"a local hides the outer key", `
		local key = KEYS[2]
		do
			local key = KEYS[1]
			if redis.call("GET", key) == ARGV[1] then redis.call("SET", "seen", 1) end
		end
		return redis.call("DEL", key)`, 0},
	{"deletes the key the value names, not the compared key", `
		local k = redis.call("GET", KEYS[1])
		if k == ARGV[1] then redis.call("DEL", k) end`, 0},
	{"a value set on one branch is unknown after it", `
		local k = "tmp"
		if ARGV[2] == "1" then k = KEYS[1] end
		if redis.call("GET", k) == ARGV[1] then return redis.call("DEL", k) end
		return 0`, 0},
	{"function parameters are not followed", `
		local function release(k, t)
			if redis.call("GET", k) == t then return redis.call("DEL", k) end
			return 0
		end
		return release(KEYS[1], ARGV[1])`, 0},
	{"data compare-and-set with locals", `
		local key = KEYS[1]
		local old, new = ARGV[1], ARGV[2]
		local cur = redis.call("GET", key)
		if cur == old then
			redis.call("SET", key, new, "PX", ARGV[3])
			return 1
		end
		return 0`, 0},
	{"counter reset with locals", `
		local key = KEYS[1]
		local n = redis.call("INCR", key)
		if n == tonumber(ARGV[1]) then redis.call("DEL", key) end
		return n`, 0},
	{"queue handoff with locals", `
		local src, dst = KEYS[1], KEYS[2]
		local job = redis.call("RPOPLPUSH", src, dst)
		if job == ARGV[1] then redis.call("LREM", dst, 1, job) end
		return job`, 0},
	{"comment and string mention GET == ARGV", `
		-- if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) end
		local doc = 'redis.call("GET", KEYS[1]) == ARGV[1]'
		return redis.call("DEL", KEYS[1])`, 0},

	// Negative corpus: scripts that are not lock steps.
	{"token bucket", `
		local tokens_key = KEYS[1]
		local timestamp_key = KEYS[2]
		local rate = tonumber(ARGV[1])
		local capacity = tonumber(ARGV[2])
		local now = tonumber(ARGV[3])
		local requested = tonumber(ARGV[4])
		local fill_time = capacity/rate
		local ttl = math.floor(fill_time*2)
		local last_tokens = tonumber(redis.call("get", tokens_key))
		if last_tokens == nil then last_tokens = capacity end
		local last_refreshed = tonumber(redis.call("get", timestamp_key))
		if last_refreshed == nil then last_refreshed = 0 end
		local delta = math.max(0, now-last_refreshed)
		local filled_tokens = math.min(capacity, last_tokens+(delta*rate))
		local allowed = filled_tokens >= requested
		local new_tokens = filled_tokens
		if allowed then new_tokens = filled_tokens - requested end
		redis.call("setex", tokens_key, ttl, new_tokens)
		redis.call("setex", timestamp_key, ttl, now)
		return { allowed, new_tokens }`, 0},
	{"sliding window", `
		redis.call("ZREMRANGEBYSCORE", KEYS[1], 0, ARGV[1] - ARGV[2])
		local n = redis.call("ZCARD", KEYS[1])
		if n < tonumber(ARGV[3]) then
			redis.call("ZADD", KEYS[1], ARGV[1], ARGV[4])
			redis.call("PEXPIRE", KEYS[1], ARGV[2])
			return 1
		end
		return 0`, 0},
	{"INCR+EXPIRE counter", `
		local current = redis.call("INCR", KEYS[1])
		if current == 1 then
			redis.call("EXPIRE", KEYS[1], ARGV[1])
		end
		return current`, 0},
	{"fixed window limiter", `local c = redis.call('incr', KEYS[1]) if tonumber(c) == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end if tonumber(c) > tonumber(ARGV[2]) then return 0 end return 1`, 0},
	{"LPOP queue", `local v = redis.call("LPOP", KEYS[1]) if v then redis.call("HSET", KEYS[2], v, ARGV[1]) end return v`, 0},
	{"RPOPLPUSH reliable queue", `return redis.call("RPOPLPUSH", KEYS[1], KEYS[2])`, 0},
	{"ZADD leaderboard", `redis.call("ZADD", KEYS[1], "GT", ARGV[1], ARGV[2]) return redis.call("ZREVRANK", KEYS[1], ARGV[2])`, 0},
	{"HINCRBY", `local n = redis.call("HINCRBY", KEYS[1], ARGV[1], 1) redis.call("EXPIRE", KEYS[1], 3600) return n`, 0},
	{"cache CAS writes a new value", `
		if redis.call("GET", KEYS[1]) == ARGV[1] then
			redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
			return 1
		end
		return 0`, 0},
	{"cache fill with TTL", `redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2]) return 1`, 0},
	{"compare with a constant, not a token", `if redis.call("get", KEYS[1]) == "1" then return redis.call("del", KEYS[1]) end return 0`, 0},
	{"owner check only", `return redis.call("get", KEYS[1]) == ARGV[1]`, 0},
	{"delete a different key", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[2]) end return 0`, 0},
	{"SET NX without a TTL (dedupe marker)", `return redis.call("SET", KEYS[1], ARGV[1], "NX")`, 0},
	{"empty", ``, 0},
}

func TestClassify(t *testing.T) {
	for _, c := range cases {
		if got := Classify(c.src); got != c.want {
			t.Errorf("%s: Classify = %v, want %v\nnormalised: %s", c.name, got, c.want, Normalize(c.src))
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"if  redis.call( 'GET', KEYS[1] ) == ARGV[1]  -- owner?\nthen return 1 end", `if redis.call("get",keys[1])==argv[1] then return 1 end`},
		{"--[==[ block\ncomment ]==] return server.pcall('DEL', KEYS[1]) ; ", `return redis.call("del",keys[1]);`},
		{"local key, token = KEYS[1], ARGV[1]\nif redis.call('GET', key) == token then return redis.call('DEL', key) end",
			`local key,token=keys[1],argv[1] if redis.call("get",keys[1])==argv[1] then return redis.call("del",keys[1]) end`},
		// not an alias: the value goes on, or a field shares the name
		{"local key = KEYS[1] .. ':x' return key", `local key=keys[1]..":x" return key`},
		{"local key = KEYS[1]; return cfg.key", `local key=keys[1];return cfg.key`},
		{"local a, b = KEYS[1] return b", `local a,b=keys[1] return b`},
		{"return [[GET]]", `return "get"`},
	} {
		if got := Normalize(c.src); got != c.want {
			t.Errorf("Normalize(%q)\n = %q\nwant %q", c.src, got, c.want)
		}
	}
}

func TestStepString(t *testing.T) {
	for s, want := range map[Step]string{0: "none", Release: "release", Extend | Acquire: "extend+acquire", Acquire | Fence: "acquire+fence"} {
		if got := s.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", s, got, want)
		}
	}
	if Fence.IsLock() || !Extend.IsLock() {
		t.Error("IsLock: fence alone is not a lock step, extend is")
	}
}

// TestLongScript classifies scripts far longer than real ones: the answer
// must not change with the length (the benchmark measures the cost).
func TestLongScript(t *testing.T) {
	src := longScript(50000)
	if got := Classify(src); got != Release {
		t.Errorf("50,000 owner checks then DEL: Classify = %v, want release", got)
	}
	if got := Classify(strings.TrimSuffix(src, "return redis.call(\"DEL\", KEYS[1])\n")); got != 0 {
		t.Errorf("50,000 owner checks and no step: Classify = %v, want none", got)
	}
	deep := strings.Repeat("(", 100000) + `redis.call("GET", KEYS[1])` + strings.Repeat(")", 100000)
	if d := Analyze(deep + ` == ARGV[1] then return redis.call("DEL", KEYS[1]) end`); d.Steps != 0 || !d.TooLarge {
		t.Errorf("nesting deeper than Lua allows: Analyze = %+v, want no steps and TooLarge", d)
	}
	if d := Analyze(src); d.TooLarge {
		t.Errorf("50,000 checks in sequence: TooLarge, want classified")
	}
}

// TestTooLarge: a generated compare-and-delete of 50,000 nested checks is
// beyond the classifier: it says so (TooLarge) rather than "no steps".
func TestTooLarge(t *testing.T) {
	var b strings.Builder
	const n = 50000
	for i := range n {
		fmt.Fprintf(&b, "if redis.call(\"GET\", KEYS[%d]) == ARGV[%d] then\n", i%7+1, i%7+1)
	}
	b.WriteString("return redis.call(\"DEL\", KEYS[1])\n" + strings.Repeat("end\n", n))
	if d := Analyze(b.String()); !d.TooLarge || d.Steps != 0 {
		t.Errorf("50,000 nested checks: Analyze = %+v, want TooLarge", d)
	}
	if d := Analyze(longScript(1000)); d.TooLarge {
		t.Errorf("a long flat script: TooLarge, want it classified")
	}
	if !strings.Contains(TooLargeReason, fmt.Sprint(maxDepth)) {
		t.Errorf("TooLargeReason %q does not name the limit %d", TooLargeReason, maxDepth)
	}
}

func FuzzClassify(f *testing.F) {
	for _, c := range cases {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		Classify(src) // must not panic or hang
		Normalize(src)
	})
}

// TestAcquireValue: which value a scripted acquire writes: an ARGV (the
// caller's token) or a literal of the text (every run writes the same).
func TestAcquireValue(t *testing.T) {
	for _, c := range []struct {
		src   string
		token int
		lit   string // "" when the value is not a literal
	}{
		{`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`, 1, ""},
		{`if redis.call("set", KEYS[2], '1', 'NX', 'EX', 86400) then return redis.call("LPUSH", KEYS[1], ARGV[1]) end`, 0, "1"},
		{`redis.call("SET", KEYS[1], 1, "NX", "EX", 60)`, 0, "1"},
		{`local v = "held" return redis.call("SET", KEYS[1], v, "NX", "EX", 60)`, 0, "held"},
		{`if redis.call("SETNX", KEYS[1], "locked") == 1 then redis.call("EXPIRE", KEYS[1], 30) end`, 0, "locked"},
		{`if redis.call("SETNX", KEYS[1], ARGV[3]) == 1 then redis.call("EXPIRE", KEYS[1], 30) end`, 3, ""},
		{`return redis.call("SET", KEYS[1], ARGV[1] .. ":x", "NX", "EX", 60)`, 0, ""},
		{`return redis.call("SET", KEYS[1], redis.call("TIME")[1], "NX", "EX", 60)`, 0, ""},
	} {
		d := Analyze(c.src)
		if d.Steps&Acquire == 0 {
			t.Errorf("%s: no acquire", c.src)
			continue
		}
		if d.Token != c.token || d.Const != (c.lit != "") || d.ConstText != c.lit {
			t.Errorf("%s: Token %d Const %v %q, want %d %q", c.src, d.Token, d.Const, d.ConstText, c.token, c.lit)
		}
	}
	// Not an acquire: no value to judge.
	if d := Analyze(`redis.call("SET", KEYS[1], "1", "EX", 60)`); d.Steps != 0 || d.Const {
		t.Errorf("SET without NX: %+v", d)
	}
}

// TestReenter: a scripted acquire that also extends the key for the owner
// that already holds it (GET key == the value the acquire writes) is a
// reentrant lock's; an extend compared with another value, of another key,
// or a script without the acquire is not.
func TestReenter(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{`if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
return 0`, true},
		{`local owner = redis.call("GET", KEYS[1])
if not owner then
  if redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then redis.call("SET", KEYS[2], 1, "PX", ARGV[2]) return {1} end
  return {0}
end
if owner == ARGV[1] then redis.call("INCR", KEYS[2]) redis.call("PEXPIRE", KEYS[1], ARGV[2]) return {2} end
return {0}`, true},
		// A hold count kept in a key built from the owner's value.
		{`local lock_key = '{' .. KEYS[1] .. '}'
local reentrant_key = lock_key .. ':count:' .. ARGV[1]
if tonumber(redis.call('GET', reentrant_key) or '0') > 0 then
    redis.call('INCR', reentrant_key)
    redis.call('PEXPIRE', lock_key, ARGV[2])
    return 1
end
if redis.call('SET', lock_key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    redis.call('SET', reentrant_key, 1)
    return 1
end
return 0`, true},
		// A fencing counter of its own key is no hold count.
		{`if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return 0`, false},
		// The extend compares another ARGV than the acquire writes.
		{`if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('get', KEYS[1]) == ARGV[3] then redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0`, false},
		// The extend is of another key.
		{`if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('get', KEYS[2]) == ARGV[1] then redis.call('pexpire', KEYS[2], ARGV[2]) end
return 0`, false},
		// A plain acquire, and a compare-and-extend without an acquire.
		{`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`, false},
		{`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`, false},
	} {
		if d := Analyze(c.src); d.Reenter != c.want {
			t.Errorf("%s: Reenter %v, want %v (%+v)", c.src, d.Reenter, c.want, d)
		}
	}
}

// TestUnchecked: what a script does to a key it never compares. A guarded set is
// a SET after an EXISTS of the key with a TTL (cheerego/go-redisson
// v0.0.6's Mutex acquire); deletes and expires are listed by KEYS index,
// except those of a key the script compares (a compare-and-delete) and
// the TTL of a key it has just written.
func TestUnchecked(t *testing.T) {
	for _, c := range []struct {
		name, src        string
		guarded          int
		lit              string
		deletes, expires []int
	}{
		{"go-redisson Mutex acquire", `
if (redis.call('exists', KEYS[1]) == 0) then
	redis.call('set', KEYS[1], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return 0;
end;
return redis.call('pttl', KEYS[1]);`, 1, "1", nil, nil},
		{"go-redisson Mutex unlock", `
if (redis.call('exists', KEYS[1]) == 0) then
    return 0;
end;
redis.call('del', KEYS[1]);
redis.call('publish', KEYS[2], ARGV[1]);
return 1;`, 0, "", []int{1}, nil},
		{"go-redisson Mutex renewal", `
if (redis.call('exists', KEYS[1]) == 1) then
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return 1;
end;
return 0;`, 0, "", nil, []int{1}},
		{"guarded set with SET PX, ARGV value", `if redis.call("EXISTS", KEYS[2]) == 0 then return redis.call("SET", KEYS[2], ARGV[1], "PX", ARGV[2]) end return 0`, 2, "", nil, nil},
		{"PSETEX after EXISTS", `if redis.call("EXISTS", KEYS[1]) == 0 then redis.call("PSETEX", KEYS[1], 500, "1") end`, 1, "1", nil, nil},
		{"GET == false then SET EX", `if redis.call("GET", KEYS[1]) == false then return redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2]) end return ""`, 1, "", nil, nil},
		{"rate limiter window", `local n = redis.call("INCR", KEYS[1]) if n == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end return n`, 0, "", nil, []int{1}},
		// not a guarded set: no EXISTS first, no TTL, or NX (an acquire)
		{"SET with a TTL, no EXISTS", `redis.call("SET", KEYS[1], ARGV[1], "EX", ARGV[2]) return 1`, 0, "", nil, nil},
		{"GET compared with a constant, then SET EX", `if redis.call("GET", KEYS[1]) ~= "busy" then redis.call("SET", KEYS[1], "busy", "EX", 5) end`, 0, "", nil, nil},
		{"EXISTS then SET without a TTL", `if redis.call("EXISTS", KEYS[1]) == 0 then redis.call("SET", KEYS[1], ARGV[1]) end`, 0, "", nil, nil},
		{"EXISTS then SET NX PX", `if redis.call("EXISTS", KEYS[1]) == 0 then return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", 100) end`, 0, "", nil, nil},
		{"compare-and-set after EXISTS (another value)", `if redis.call("EXISTS", KEYS[1]) == 1 and redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SETEX", KEYS[1], 60, ARGV[2]) end`, 0, "", nil, nil},
		{"SETNX then EXPIRE", `if redis.call("SETNX", KEYS[1], ARGV[1]) == 1 then redis.call("EXPIRE", KEYS[1], 30) end`, 0, "", nil, nil},
		// compared keys are not unchecked; a built key has no KEYS index
		{"compare-and-delete", `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, 0, "", nil, nil},
		{"compare-and-extend", `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`, 0, "", nil, nil},
		{"delete of a built key", `return redis.call("DEL", "lock:" .. ARGV[1])`, 0, "", nil, nil},
		{"queue cleanup", `redis.call("DEL", KEYS[2], KEYS[1]) redis.call("UNLINK", KEYS[3]) redis.call("DEL", KEYS[3])`, 0, "", []int{2, 3}, nil},
	} {
		d := Analyze(c.src)
		if d.Guarded != c.guarded || (c.guarded != 0 && (d.Const != (c.lit != "") || d.ConstText != c.lit)) ||
			fmt.Sprint(d.Deletes) != fmt.Sprint(c.deletes) || fmt.Sprint(d.Expires) != fmt.Sprint(c.expires) {
			t.Errorf("%s: Guarded %d Const %v %q Deletes %v Expires %v, want %d %q %v %v",
				c.name, d.Guarded, d.Const, d.ConstText, d.Deletes, d.Expires, c.guarded, c.lit, c.deletes, c.expires)
		}
		if c.guarded != 0 && d.Steps != 0 {
			t.Errorf("%s: Steps %v, want none (a guarded set is no lock step by its text)", c.name, d.Steps)
		}
	}
	if d := Analyze(`if(redis.call("EXISTS",KEYS[1])==1)then if(redis.call("GET",KEYS[1])==ARGV[2])then redis.call("EXPIRE",KEYS[1],ARGV[1]);return 1;else return 0;end;else redis.call("SETEX",KEYS[1],ARGV[1],ARGV[2]);return 1;end`); d.Guarded != 1 || d.Token != 2 || !d.Reenter || d.Steps != Extend {
		// liumingmin/goutils's RdsLuaLock: the owner's re-entry extends, the
		// SETEX is a guarded set.
		t.Errorf("SETEX guarded set with a re-entry: Guarded %d Token %d Reenter %v Steps %v, want 1 2 true extend", d.Guarded, d.Token, d.Reenter, d.Steps)
	}
	if d := Analyze(`if redis.call("EXISTS", KEYS[1]) == 0 then return redis.call("SET", KEYS[1], ARGV[2], "PX", 9) end`); d.Token != 2 {
		t.Errorf("guarded set of ARGV[2]: Token %d, want 2", d.Token)
	}
}

// TestTTL: the ARGV an acquire (or a guarded set) reads its relative TTL
// from, and the option or command that reads it.
func TestTTL(t *testing.T) {
	for _, c := range []struct {
		name, src string
		ttl       int
		unit      string
	}{
		{"SET NX PX ARGV", `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`, 2, "PX"},
		{"SET NX EX tonumber(ARGV)", `return redis.call("set", KEYS[1], ARGV[1], "nx", "ex", tonumber(ARGV[3]))`, 3, "EX"},
		{"SETNX then EXPIRE", `if redis.call("SETNX", KEYS[1], ARGV[1]) == 1 then redis.call("EXPIRE", KEYS[1], ARGV[2]) return 1 end return 0`, 2, "EXPIRE"},
		{"GET == false then SET EX, re-entry EXPIRE", `local v = redis.call("get", KEYS[1]) if v == false then return redis.call("set", KEYS[1], ARGV[1], "EX", ARGV[2]) elseif v == ARGV[1] then redis.call("expire", KEYS[1], ARGV[2]) return "OK" end return ""`, 2, "EX"},
		{"EXISTS then SET then PEXPIRE", `if redis.call("EXISTS", KEYS[1]) == 0 then redis.call("SET", KEYS[1], ARGV[1]) redis.call("PEXPIRE", KEYS[1], ARGV[2]) end`, 2, "PEXPIRE"},
		{"EXISTS then PSETEX", `if redis.call("EXISTS", KEYS[1]) == 0 then redis.call("PSETEX", KEYS[1], ARGV[2], ARGV[1]) end`, 2, "PSETEX"},
		// no ARGV amount: a constant, a computed value, an absolute time
		{"constant PX", `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", 30000)`, 0, ""},
		{"computed PX", `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2] * 1000)`, 0, ""},
		{"PXAT", `return redis.call("SET", KEYS[1], ARGV[1], "NX", "PXAT", ARGV[2])`, 0, ""},
		{"no acquire", `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`, 0, ""},
	} {
		if d := Analyze(c.src); d.TTL != c.ttl || d.TTLUnit != c.unit {
			t.Errorf("%s: TTL %d %q, want %d %q", c.name, d.TTL, d.TTLUnit, c.ttl, c.unit)
		}
	}
}

// TestPaired: a DEL or EXPIRE of one KEYS key after an owner check of
// another is a step only a run can decide (both keys the same value).
func TestPaired(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      string
	}{
		{"gorlock compare-and-PEXPIRE of KEYS[2]", `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[2], ARGV[2]) else return 0 end`, "[{extend 1 2}]"},
		{"compare KEYS[2], DEL KEYS[1]", `if redis.call("GET", KEYS[2]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, "[{release 2 1}]"},
		// no owner check of another key: nothing to pair
		{"compare-and-extend of one key", `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`, "[]"},
		{"compared with a constant", `if redis.call("GET", KEYS[1]) == "on" then return redis.call("DEL", KEYS[2]) end return 0`, "[]"},
		{"DEL before the check", `redis.call("DEL", KEYS[2]) if redis.call("GET", KEYS[1]) == ARGV[1] then return 1 end return 0`, "[]"},
		{"built key", `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1] .. ":x") end return 0`, "[]"},
	} {
		d := Analyze(c.src)
		var got []string
		for _, p := range d.Paired {
			got = append(got, fmt.Sprintf("{%s %d %d}", p.Step, p.Checked, p.Key))
		}
		if s := "[" + strings.Join(got, " ") + "]"; s != c.want {
			t.Errorf("%s: Paired %s, want %s", c.name, s, c.want)
		}
		if c.want != "[]" && d.Steps.IsLock() {
			t.Errorf("%s: Steps %v, want none by the text alone", c.name, d.Steps)
		}
	}
}

func TestRepliesNoOutcome(t *testing.T) {
	for src, want := range map[string]bool{
		`if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) end return redis.status_reply("OK")`:                          true,
		`if redis.call("LREM", KEYS[1], 0, ARGV[1]) == 0 then return redis.error_reply("NOT FOUND") end redis.call("DEL", KEYS[2]) return "OK"`: true,
		`if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) end`:                                                          true,
		`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`:                                     false,
		`if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) return redis.status_reply("OK") end return 0`:                 false,
		`local n = redis.call("DEL", KEYS[1]) return redis.pcall("GET", KEYS[2])`:                                                               false,
	} {
		if got := RepliesNoOutcome(src); got != want {
			t.Errorf("RepliesNoOutcome(%q) = %v, want %v", src, got, want)
		}
	}
}
