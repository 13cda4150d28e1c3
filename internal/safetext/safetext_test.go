package safetext

import "testing"

// TestPrefix: a cut never splits a character, and whole says when nothing
// was cut.
func TestPrefix(t *testing.T) {
	for _, tc := range []struct {
		s     string
		n     int
		want  string
		whole bool
	}{
		{"lock:a", 6, "lock:a", true},
		{"lock:a", 5, "lock:", false},
		{"ab€", 4, "ab", false}, // € is 3 bytes: cut before it
		{"ab€", 5, "ab€", true},
		{"€", 2, "", false},
	} {
		got, whole := Prefix(tc.s, tc.n)
		if got != tc.want || whole != tc.whole {
			t.Errorf("Prefix(%q, %d) = %q, %v; want %q, %v", tc.s, tc.n, got, whole, tc.want, tc.whole)
		}
	}
}
