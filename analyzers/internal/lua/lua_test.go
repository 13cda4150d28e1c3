package lua

import "testing"

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
	got := Normalize("if  redis.call( 'GET', KEYS[1] ) == ARGV[1]  -- owner?\nthen return 1 end")
	want := `if redis.call("get",keys[1])==argv[1] then return 1 end`
	if got != want {
		t.Errorf("Normalize = %q, want %q", got, want)
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

func FuzzClassify(f *testing.F) {
	for _, c := range cases {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		Classify(src) // must not panic
	})
}
