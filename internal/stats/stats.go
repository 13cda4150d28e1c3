// Package stats holds the arithmetic the benchmarks share: they print
// medians of alternating runs, which noise on a shared machine moves less
// than means.
package stats

import "slices"

// Median is the middle of xs (the mean of the two middle values for an
// even count); xs is not changed. It panics on an empty slice.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	n := len(s)
	return (s[n/2-1] + s[n/2]) / 2
}
