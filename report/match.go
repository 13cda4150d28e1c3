package report

import (
	"strings"
)

// Matching findings across runs. A finding still there is "unchanged"
// however the code around it was edited: findings are paired key by key,
// the most exact key first, and each old finding pairs with at most one
// new one (a second identical line is new):
//
//  1. code: rule, file and the hash of the source line (the key baselines
//     use, LineHash); node: rule, node and subject;
//  2. code: rule, file, enclosing function and the normalised snippet
//     (the line without its comment, whitespace collapsed): a comment
//     edited on a line that also moved;
//  3. code: rule, file and enclosing function, the nearest line first: a
//     line rewritten around a finding that stays (vet -fix rewrote the
//     SETNX of LA106, the token of LA107 on the same line is still not
//     unique); node: rule and node, where one of the runs has no subject
//     (written before findings had one).
//
// A finding without an enclosing function (package level, or a run
// written before findings named it) is matched by the first key only.

// matchTier is one key of the pairing; "" means the finding has none.
type matchTier func(Finding) string

var matchTiers = []matchTier{
	func(f Finding) string { return findingKey(f, false) },
	func(f Finding) string {
		if f.Pos == nil || f.Func == "" {
			return ""
		}
		return string(f.Rule) + "\x00" + f.Pos.File + "\x00" + f.Func + "\x00" + normalisedSnippet(f.Source)
	},
	func(f Finding) string {
		if f.Pos == nil {
			return findingKey(f, true) // paired only where one has no subject (compatible)
		}
		if f.Func == "" {
			return ""
		}
		return string(f.Rule) + "\x00" + f.Pos.File + "\x00" + f.Func
	},
}

// normalisedSnippet is a source line without its trailing // comment and
// with whitespace collapsed. A "//" inside a string literal ends it early:
// that only makes the key coarser on one line.
func normalisedSnippet(line string) string {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	return strings.Join(strings.Fields(line), " ")
}

// pairing pairs the old run's active findings with the new run's.
type pairing struct {
	old     []Finding
	oldUsed []bool
	cur     []Finding
	pairOf  []int // for each new finding, the old one it pairs with, or -1
}

func pair(old, cur []Finding) *pairing {
	p := &pairing{old: old, oldUsed: make([]bool, len(old)), cur: cur, pairOf: make([]int, len(cur))}
	for i := range p.pairOf {
		p.pairOf[i] = -1
	}
	for _, key := range matchTiers {
		p.match(key)
	}
	return p
}

// match pairs the findings still unpaired that share a key, each new one
// with the nearest old one.
func (p *pairing) match(key matchTier) {
	byKey := map[string][]int{}
	for i, f := range p.old {
		if p.oldUsed[i] {
			continue
		}
		if k := key(f); k != "" {
			byKey[k] = append(byKey[k], i)
		}
	}
	if len(byKey) == 0 {
		return
	}
	for j, f := range p.cur {
		if p.pairOf[j] >= 0 {
			continue
		}
		k := key(f)
		best := -1
		for _, i := range byKey[k] {
			if !p.oldUsed[i] && compatible(p.old[i], f) && (best < 0 || distance(p.old[i], f) < distance(p.old[best], f)) {
				best = i
			}
		}
		if k != "" && best >= 0 {
			p.oldUsed[best] = true
			p.pairOf[j] = best
		}
	}
}

// compatible: two node findings pair without the same subject only when
// one of them has none.
func compatible(a, b Finding) bool {
	return a.Pos != nil || a.Subject == b.Subject || a.Subject == "" || b.Subject == ""
}

// distance is how far apart two code findings' lines are (0 for node
// findings): among equal keys the nearest pairs.
func distance(a, b Finding) int {
	if a.Pos == nil || b.Pos == nil {
		return 0
	}
	d := a.Pos.Line - b.Pos.Line
	if d < 0 {
		return -d
	}
	return d
}

// unpairedOld is the old findings no new one paired with.
func (p *pairing) unpairedOld() []Finding {
	var out []Finding
	for i, f := range p.old {
		if !p.oldUsed[i] {
			out = append(out, f)
		}
	}
	return out
}
