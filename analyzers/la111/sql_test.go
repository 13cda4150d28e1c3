package la111

import (
	"strings"
	"testing"
)

func TestNonStrict(t *testing.T) {
	isFence := func(c string) bool {
		c = strings.ToLower(c)
		return strings.Contains(c, "fence") || strings.Contains(c, "token")
	}
	for sql, want := range map[string]string{
		"UPDATE jobs SET fence = $1 WHERE id = $2 AND fence <= $1":                                       "fence <= $1 -> fence < $1",
		"UPDATE t SET x = 1 WHERE last_fence<=?":                                                         "last_fence <= ? -> last_fence < ?",
		"UPDATE t SET x = 1 WHERE $1 >= fence":                                                           "$1 >= fence -> $1 > fence",
		"UPDATE t SET x = 1 WHERE t.fencing_token <= :tok":                                               "t.fencing_token <= :tok -> t.fencing_token < :tok",
		`UPDATE t SET x = 1 WHERE "t"."Fence" <= @p1`:                                                    "t.Fence <= @p1 -> t.Fence < @p1",
		"UPDATE t SET x = 1 WHERE fence <= $1::bigint":                                                   "fence <= $1 -> fence < $1",
		"INSERT INTO t VALUES ($1) ON CONFLICT (id) DO UPDATE SET f = 1 WHERE t.fence <= excluded.fence": "t.fence <= excluded.fence -> t.fence < excluded.fence",
		"UPDATE t SET x = 1 WHERE fence < $1":                                                            "",
		"UPDATE t SET x = 1 WHERE $1 > fence":                                                            "",
		"UPDATE t SET x = 1 WHERE fence >= $1":                                                           "",
		"UPDATE t SET x = 1 WHERE tokens <= 0":                                                           "",
		"UPDATE t SET x = 'fence <= $1' WHERE fence < $1":                                                "",
		"UPDATE t SET x = 1 WHERE fence < $1 -- was: fence <= $1":                                        "",
		"UPDATE t SET x = 1 /* fence <= $1 */ WHERE fence < $1":                                          "",
		"UPDATE t SET x = 1 WHERE version <= $1":                                                         "",
		"UPDATE t SET x = 'it''s' WHERE fence <= $2":                                                     "fence <= $2 -> fence < $2",
	} {
		var got []string
		for _, p := range nonStrict(sql, isFence) {
			got = append(got, p.Text+" -> "+p.Fix)
		}
		if g := strings.Join(got, "; "); g != want {
			t.Errorf("%s:\n got %q\nwant %q", sql, g, want)
		}
	}
}

func FuzzLex(f *testing.F) {
	f.Add("UPDATE t SET x = 'a''b' WHERE fence <= $1 -- c")
	f.Add(`/* x */ "a"."b" <= ?::int`)
	f.Fuzz(func(t *testing.T, s string) {
		nonStrict(s, func(string) bool { return true })
	})
}
