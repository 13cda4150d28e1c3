package lua

import (
	"fmt"
	"strings"
	"testing"
)

// longScript returns a script of n owner checks (GET compared with an ARGV
// token) that ends in a release, cycling through the spellings the
// classifier follows: GET compared directly, ARGV on the left, the reply in
// a local, key and token in locals. Each local sits in a do ... end block,
// as Lua allows at most 200 locals per function.
func longScript(n int) string {
	shapes := []string{
		"if redis.call(\"GET\", KEYS[1]) == ARGV[%d] then return -1 end\n",
		"if ARGV[%d] == redis.call(\"GET\", KEYS[1]) then return -2 end\n",
		"do local v = redis.call(\"GET\", KEYS[1]) if v == ARGV[%d] then return -3 end end\n",
		"do local k, t = KEYS[1], ARGV[%d] if redis.call(\"GET\", k) ~= t then return -4 end end\n",
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, shapes[i%len(shapes)], i%7+1)
	}
	b.WriteString("return redis.call(\"DEL\", KEYS[1])\n")
	return b.String()
}

// BenchmarkClassify shows the classifier's cost per check staying flat from
// 1,000 to 50,000 checks (linear in the script's length).
func BenchmarkClassify(b *testing.B) {
	benchSizes(b, func(src string) { Classify(src) })
}

// BenchmarkNormalize is the same for the form the fixes match against.
func BenchmarkNormalize(b *testing.B) {
	benchSizes(b, func(src string) { Normalize(src) })
}

// benchSizes runs f on scripts of 1,000, 10,000 and 50,000 checks and
// reports wall and CPU time per check (the CPU figure is the steadier one on
// a shared machine).
func benchSizes(b *testing.B, f func(string)) {
	for _, n := range []int{1000, 10000, 50000} {
		src := longScript(n)
		b.Run(fmt.Sprintf("checks=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				f(src)
			}
			per := float64(b.N) * float64(n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/check")
			if cpu > 0 {
				b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/per, "cpu-ns/check")
			}
		})
	}
}
