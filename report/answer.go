package report

import (
	"fmt"
	"strings"
)

// Answer is a yes/no question about a node (has it DELIFEQ? does it run
// Lua?) or about a lock path (is it safe on every node that can become
// primary?). Its zero value is Unknown: what was not read is never yes.
type Answer int8

const (
	Unknown Answer = iota
	Yes
	No
)

var answerEnum = enum[Answer]{"answer", []string{Unknown: "unknown", Yes: "yes", No: "no"}}

// Valid reports whether a is Unknown, Yes or No.
func (a Answer) Valid() bool { return answerEnum.valid(a) }

func (a Answer) String() string { return answerEnum.str(a) }

// AnswerOf is Yes for true and No for false.
func AnswerOf(b bool) Answer {
	if b {
		return Yes
	}
	return No
}

// Worse combines two answers about one path: No beats Unknown beats Yes.
func Worse(a, b Answer) Answer {
	rank := func(x Answer) int { return [...]int{Unknown: 1, Yes: 0, No: 2}[x] }
	if rank(b) > rank(a) {
		return b
	}
	return a
}

func (a Answer) MarshalText() ([]byte, error)  { return answerEnum.marshal(a) }
func (a *Answer) UnmarshalText(b []byte) error { return answerEnum.unmarshal(b, a) }

// Promotable says whether a failover can make a node primary. Its zero
// value is PromotableUnknown.
type Promotable int8

const (
	PromotableUnknown Promotable = iota
	PromotableYes
	PromotableNo
	PromotableManual // cluster-replica-no-failover: only a manual CLUSTER FAILOVER promotes it
)

var promotableEnum = enum[Promotable]{"promotable", []string{PromotableUnknown: "unknown", PromotableYes: "yes", PromotableNo: "no", PromotableManual: "manual"}}

// Valid reports whether p is one of the four values.
func (p Promotable) Valid() bool { return promotableEnum.valid(p) }

func (p Promotable) String() string                { return promotableEnum.str(p) }
func (p Promotable) MarshalText() ([]byte, error)  { return promotableEnum.marshal(p) }
func (p *Promotable) UnmarshalText(b []byte) error { return promotableEnum.unmarshal(b, p) }

// enum spells a small enumeration: value i is words[i]; "" marks a value
// without a spelling (an invalid zero). Words are matched exactly:
// "UNSAFE" is not "unsafe".
type enum[T ~int8 | ~uint8] struct {
	name  string
	words []string
}

func (e enum[T]) valid(v T) bool { return int(v) >= 0 && int(v) < len(e.words) && e.words[v] != "" }

func (e enum[T]) str(v T) string {
	if !e.valid(v) {
		return fmt.Sprintf("%s(%d)", e.name, v)
	}
	return e.words[v]
}

func (e enum[T]) marshal(v T) ([]byte, error) {
	if !e.valid(v) {
		return nil, fmt.Errorf("invalid %s %d", e.name, v)
	}
	return []byte(e.words[v]), nil
}

// unmarshal reads a word; the error says what was expected, for the
// decoder to prefix with where.
func (e enum[T]) unmarshal(b []byte, v *T) error {
	for i, w := range e.words {
		if w != "" && w == string(b) {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", b, strings.Join(e.allowed(), ", "))
}

// allowed lists the words in the order the JSON contract documents them:
// a zero "unknown" last.
func (e enum[T]) allowed() []string {
	out := append([]string(nil), e.words[1:]...)
	if e.words[0] != "" {
		out = append(out, e.words[0])
	}
	return out
}
