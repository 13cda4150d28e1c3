package driver

import (
	"fmt"
	"strings"
)

// unified returns the unified diff (3 lines of context) of a and b, with
// the file names from and to, or "" when they are equal. Lines are
// compared with Myers' O(ND) algorithm, which is fast when the files
// differ in few places, as fixed files do.
func unified(from, to string, a, b []byte) string {
	al, bl := splitLines(string(a)), splitLines(string(b))
	ops := diffLines(al, bl)
	const ctx = 3
	var out strings.Builder
	i := 0
	for i < len(ops) {
		// find the next change
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-ctx, 0)
		end := i
		// extend while changes are within 2*ctx of each other
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			j := end
			for j < len(ops) && ops[j].kind == ' ' {
				j++
			}
			if j == len(ops) || j-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = j
		}
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
		}
		aStart, bStart := ops[start].a, ops[start].b
		aN, bN := 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				aN++
			}
			if o.kind != '-' {
				bN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
		for _, o := range ops[start:end] {
			line := ""
			switch o.kind {
			case '+':
				line = bl[o.b]
			default:
				line = al[o.a]
			}
			out.WriteByte(o.kind)
			out.WriteString(line)
			if !strings.HasSuffix(line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start) // the line before the (empty) range
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// dop is one line of an edit script: ' ' kept (a and b set), '-' deleted
// (a set), '+' inserted (b set). For '-' b is the position in b where the
// deletion happens, and for '+' a the position in a, so hunk headers can
// be computed from any op.
type dop struct {
	kind byte
	a, b int
}

// diffLines is Myers' greedy LCS edit script of a into b.
func diffLines(a, b []string) []dop {
	// Common prefix and suffix need no search.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var ops []dop
	for i := 0; i < pre; i++ {
		ops = append(ops, dop{' ', i, i})
	}
	for _, o := range myers(ma, mb) {
		ops = append(ops, dop{o.kind, o.a + pre, o.b + pre})
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, dop{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

func myers(a, b []string) []dop {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	off := n + m
	v := make([]int, 2*off+2)
	var trace [][]int
	found := false
	for d := 0; d <= off && !found; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	var rev []dop
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		vd := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && vd[off+k-1] < vd[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vd[off+pk]
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, dop{' ', x, y})
		}
		if x == px {
			y--
			rev = append(rev, dop{'+', x, y})
		} else {
			x--
			rev = append(rev, dop{'-', x, y})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, dop{' ', x, y})
	}
	ops := make([]dop, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}
