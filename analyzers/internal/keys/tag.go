package keys

import "strings"

// Tag is a key's cluster hash tag: what lies between the first "{" and the
// next "}" (Valkey hashes only that part when it is not empty).
type Tag struct {
	// Known is false when the key's text cannot be seen (a parameter, an
	// unknown call): nothing can be said about its slot.
	Known bool
	// Has is true when the key has a non-empty hash tag.
	Has   bool
	Parts []Part // the tag's contents: constant text and holes
}

// TagOf returns the hash tag of a key shape. Holes are assumed to hold no
// braces: "lock:"+id has no tag, "lock:{"+id+"}" has the tag id.
func (in *Info) TagOf(s Shape) Tag {
	switch s.Kind {
	case Const, Template:
	case Call:
		if s.Inline == nil {
			return Tag{}
		}
		return in.TagOf(*s.Inline)
	default:
		return Tag{}
	}
	var tag []Part
	open := false
	for _, p := range s.Parts {
		if p.Hole != nil {
			if open {
				tag = append(tag, p)
			}
			continue
		}
		text := p.Text
		if !open {
			i := strings.IndexByte(text, '{')
			if i < 0 {
				continue
			}
			open, text = true, text[i+1:]
		}
		if j := strings.IndexByte(text, '}'); j >= 0 {
			if j > 0 {
				tag = append(tag, Part{Text: text[:j]})
			}
			return Tag{Known: true, Has: len(tag) > 0, Parts: tag}
		}
		if text != "" {
			tag = append(tag, Part{Text: text})
		}
	}
	// No "{", or a "{" never closed: the whole key is hashed.
	return Tag{Known: true}
}

// SameTag reports whether two keys' tags are known to hash alike (same
// text, holes filled by the same expression), and whether that could be
// decided at all. Two keys of which one has no tag are not alike (lock and
// fence keys differ, so they hash to different slots), nor are tags of
// different constant text. Tags whose holes are filled by different
// expressions, or where one has text and the other a hole, are undecided:
// the values may be equal at run time.
func (in *Info) SameTag(a, b Tag) (same, known bool) {
	if !a.Known || !b.Known {
		return false, false
	}
	if !a.Has || !b.Has || len(a.Parts) != len(b.Parts) {
		return false, true
	}
	for i := range a.Parts {
		pa, pb := a.Parts[i], b.Parts[i]
		switch {
		case pa.Hole == nil && pb.Hole == nil:
			if pa.Text != pb.Text {
				return false, true
			}
		case pa.Hole != nil && pb.Hole != nil:
			if pa.Verb != pb.Verb || in.HoleKey(pa.Hole) != in.HoleKey(pb.Hole) {
				return false, false
			}
		default:
			return false, false
		}
	}
	return true, true
}
