// Package jsonstrict decodes JSON files that lockaudit wrote and a person
// may have edited — saved runs (`lockaudit render`) and baselines — the way
// rules/yamlstrict decodes the hand-written YAML ones: exactly one value,
// no unknown field, and every error with the line and column where it is,
// which encoding/json gives only as a byte offset (and for unknown fields
// and a value's own decoder errors, not at all).
package jsonstrict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync"
)

// Error is a problem at a place in the input. Line and Col are 1-based, 0
// when the place is not known.
type Error struct {
	Line, Col int
	Msg       string
	// UnknownField is the name of an unknown field, for callers that
	// explain where it may come from.
	UnknownField string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// FieldError is an error a value's own decoder found and placed itself
// (a field of a verdict that contradicts another): Describe keeps its
// message as it is, rather than guess a place from a quoted word in it.
type FieldError struct {
	Field, Msg string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Decode decodes data, which must hold exactly one JSON value and no
// field v does not have, into v.
//
// An object decoded into a struct is decoded a field at a time, and a
// field that is an array an element at a time: a json.Decoder copies the
// whole value it decodes into a buffer of its own, so a saved run of 30 MB
// would be held twice (in a buffer grown by doubling). Should anything be
// wrong, the document is decoded again whole, the plain way, for the
// error: its place and words are the same either way.
func Decode(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct && firstByte(data, 0) == '{' {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if decodeFields(dec, data, rv.Elem()) {
			return rest(dec, data)
		}
		v = reflect.New(rv.Elem().Type()).Interface() // for the error only
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Describe(data, err)
	}
	return rest(dec, data)
}

// rest refuses anything after the decoded value.
func rest(dec *json.Decoder, data []byte) error {
	off := int(dec.InputOffset())
	if rest := bytes.TrimLeft(data[off:], " \t\r\n"); len(rest) > 0 {
		line, col := LineCol(data, len(data)-len(rest))
		return &Error{Line: line, Col: col, Msg: "more data after the end of the value (one JSON value per file)"}
	}
	return nil
}

// decodeFields decodes the object at the decoder's position into the
// struct v, field by field, the elements of array fields one by one, and
// reports whether it could. Field names match as encoding/json matches
// them (exactly, else without regard to case).
func decodeFields(dec *json.Decoder, data []byte, v reflect.Value) bool {
	fields := map[string]int{}
	var names []string
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || f.Anonymous {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = i
		names = append(names, name)
	}
	delim := func(want json.Delim) bool {
		tok, err := dec.Token()
		return err == nil && tok == want
	}
	if !delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		i, ok := fields[key]
		for _, n := range names {
			if !ok && strings.EqualFold(n, key) {
				i, ok = fields[n], true
			}
		}
		if !ok {
			return false
		}
		f := v.Field(i)
		if f.Kind() != reflect.Slice || firstByte(data, int(dec.InputOffset())) != '[' {
			if dec.Decode(f.Addr().Interface()) != nil {
				return false
			}
			continue
		}
		if !delim('[') {
			return false
		}
		s := reflect.MakeSlice(f.Type(), 0, 0)
		for dec.More() {
			e := reflect.New(f.Type().Elem())
			if dec.Decode(e.Interface()) != nil {
				return false
			}
			s = reflect.Append(s, e.Elem())
		}
		if !delim(']') {
			return false
		}
		f.Set(s)
	}
	return delim('}')
}

// firstByte is the first byte of data from off on that is neither JSON
// whitespace nor the colon after a key; 0 at the end.
func firstByte(data []byte, off int) byte {
	if rest := bytes.TrimLeft(data[min(off, len(data)):], " \t\r\n:"); len(rest) > 0 {
		return rest[0]
	}
	return 0
}

var (
	unknownFieldRE = lazyRE(`^json: unknown field "(.*)"$`)
	quotedRE       = lazyRE(`"((?:[^"\\]|\\.)*)"`)
)

// Describe turns an error of encoding/json on data into an *Error with the
// line and column.
func Describe(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var field *FieldError
	switch {
	case errors.As(err, &field):
		return &Error{Msg: field.Error()}
	case errors.As(err, &syn):
		// Offset counts the bytes read, the offending one included.
		line, col := LineCol(data, int(syn.Offset)-1)
		return &Error{Line: line, Col: col, Msg: "malformed JSON: " + strings.TrimPrefix(syn.Error(), "json: ")}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		line, col := LineCol(data, len(data))
		return &Error{Line: line, Col: col, Msg: "malformed JSON: the input ends in the middle of the value"}
	case errors.As(err, &typ):
		line, col := LineCol(data, int(typ.Offset)) // just after the value
		field := PathAt(data, int(typ.Offset)-1)
		if field == "" {
			field = "the value"
		}
		return &Error{Line: line, Col: col, Msg: fmt.Sprintf("%s: want %s, got JSON %s", field, wantType(typ.Type), typ.Value)}
	}
	if m := unknownFieldRE().FindStringSubmatch(err.Error()); m != nil {
		e := &Error{Msg: fmt.Sprintf("unknown field %q", m[1]), UnknownField: m[1]}
		// encoding/json does not say where; the first use of the name as
		// a key is almost always it.
		key := regexp.MustCompile(`"` + regexp.QuoteMeta(m[1]) + `"\s*:`)
		if loc := key.FindIndex(data); loc != nil {
			e.Line, e.Col = LineCol(data, loc[0])
		}
		return e
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	// Errors from a field's own decoder (an unknown severity) carry no
	// offset; find the quoted value they name.
	if m := quotedRE().FindStringSubmatch(msg); m != nil {
		val := regexp.MustCompile(`:\s*"` + regexp.QuoteMeta(m[1]) + `"`)
		if loc := val.FindIndex(data); loc != nil {
			off := loc[0] + bytes.IndexByte(data[loc[0]:], '"')
			line, col := LineCol(data, off)
			if path := PathAt(data, off); path != "" {
				msg = path + ": " + msg
			}
			return &Error{Line: line, Col: col, Msg: msg}
		}
	}
	return &Error{Msg: msg}
}

// PathAt names the value of data that holds the byte at off, as the JSON
// contract spells fields: "nodes[0].delifeq"; "" for the top level or
// when data does not parse up to off.
func PathAt(data []byte, off int) string {
	type frame struct {
		object bool
		key    string
		index  int
		inKey  bool // an object expecting its next key
	}
	var stack []frame
	path := func() string {
		var b strings.Builder
		for _, f := range stack {
			if f.object {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			} else {
				fmt.Fprintf(&b, "[%d]", f.index)
			}
		}
		return b.String()
	}
	// done moves the innermost container past a value.
	done := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].inKey = true
			} else {
				stack[n-1].index++
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		end := int(dec.InputOffset())
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].inKey {
			if k, ok := tok.(string); ok {
				stack[n-1].key, stack[n-1].inKey = k, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if end > off {
				return path()
			}
			stack = append(stack, frame{object: tok == json.Delim('{'), inKey: tok == json.Delim('{'), index: 0})
			continue
		case json.Delim('}'), json.Delim(']'):
			if end > off {
				stack = stack[:len(stack)-1]
				return path()
			}
			stack = stack[:len(stack)-1]
			done()
			continue
		}
		if end > off {
			return path()
		}
		done()
	}
}

// LineCol converts a byte offset into a 1-based line and column.
func LineCol(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// lazyRE compiles a pattern on first use, not at start-up.
func lazyRE(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// wantType names the Go type a value should have had as a reader of the
// file knows it: a named string or number (rules.ID) by its kind, "string".
func wantType(t reflect.Type) string {
	switch k := t.Kind(); {
	case t.PkgPath() == "":
	case k == reflect.String, k == reflect.Bool, k >= reflect.Int && k <= reflect.Float64:
		return k.String()
	}
	return t.String()
}
