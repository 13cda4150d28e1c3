package fix

import "testing"

func TestCompareAndDelete(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`, true},
		{"if redis.call('GET', KEYS[1]) == ARGV[1] then\n\treturn redis.call('DEL', KEYS[1])\nend\nreturn 0", true},
		{"local key = KEYS[1]\nlocal token = ARGV[1]\nif redis.call('GET', key) == token then\n return redis.call('UNLINK', key)\nelse\n return 0\nend\n", true},
		{`if ARGV[1] == redis.call("get", KEYS[1]) then return redis.call("del", KEYS[1]); else return 0; end`, true},
		{"if redis.call(\"get\",KEYS[1]) ~= ARGV[1] then return 0 end\nreturn redis.call(\"del\",KEYS[1])", true},
		{`if server.call("get", KEYS[1]) ~= ARGV[1] then return 0 else return server.call("del", KEYS[1]) end -- release`, true},
		{`if redis.pcall("get", KEYS[1]) == ARGV[1] then return redis.pcall("del", KEYS[1]) else return 0 end`, true},

		// Replies other than 1/0, other keys or arguments, more work.
		{`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end`, false},
		{`local val = redis.call("GET", KEYS[1]) if val == ARGV[1] then return redis.call("DEL", KEYS[1]) elseif val == false then return -1 else return 0 end`, false},
		{`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return false end`, false},
		{`if redis.call("get", KEYS[1]) == ARGV[2] then return redis.call("del", KEYS[1]) else return 0 end`, false},
		{`if redis.call("get", KEYS[2]) == ARGV[1] then return redis.call("del", KEYS[2]) else return 0 end`, false},
		{`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1], KEYS[2]) else return 0 end`, false},
		{`if redis.call("get", KEYS[1]) == ARGV[1] then redis.call("incr", KEYS[2]) return redis.call("del", KEYS[1]) else return 0 end`, false},
		{`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`, false},
		{`return redis.call("del", KEYS[1])`, false},
	} {
		if got := CompareAndDelete(c.src); got != c.want {
			t.Errorf("CompareAndDelete(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
