// Package yamlstrict decodes YAML files that users write by hand (the
// config file, inventories) into Go structs, and reports every unknown key,
// wrongly typed value and invalid item at once, each with its file, line and
// dotted key path, so one run shows everything to fix. yaml.v3's own
// KnownFields errors name Go types, not the user's keys, and stop at the
// first, hence this walker.
package yamlstrict

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockaudit/lockaudit/internal/secret"
)

// Error is a problem in a file, at a line.
type Error struct {
	Path string
	Line int
	Key  string // dotted path, e.g. probe.timeout
	Msg  string
}

func (e *Error) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// Errors are all the problems found in one file, in line order. Decode
// returns them whenever there is at least one; errors.As finds the first
// *Error through Unwrap.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap gives errors.Is and errors.As every error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// List returns the problems err holds: the items of an Errors, or err
// itself; nil for nil.
func List(err error) []error {
	var es Errors
	if errors.As(err, &es) {
		return es.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// The limits of a hand-written file (docs/config.md#limits): such a file is
// a few kilobytes, and a file past them is refused before it is decoded,
// rather than decoded for minutes (a 100 MB config took 35 s to parse; a
// million lock_keys, each compiled and matched, 93 s and 2.5 GB).
const (
	// MaxFileSize bounds the file.
	MaxFileSize = 2 << 20
	// DefaultMaxItems bounds each list and mapping (Checks.MaxItems
	// raises it for an inventory's nodes).
	DefaultMaxItems = 1000
)

// ReadFile reads a hand-written YAML file: a regular file (a FIFO would
// block the read for ever) of at most MaxFileSize bytes.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("not a regular file (%v)", fi.Mode().Type())}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, tooLarge(path)
	}
	return data, nil
}

func tooLarge(path string) error {
	return &Error{Path: path, Msg: fmt.Sprintf("larger than %d MiB: a file written by hand holds a few kilobytes (docs/config.md#limits)", MaxFileSize>>20)}
}

// Checks validate what types alone cannot. Item is called for every list
// item and map entry (name is the map key, "" for list items) and Key after
// a whole key is decoded; a returned error is reported at that item's or
// key's line. Either may be nil.
type Checks struct {
	Item func(key, name, value string) error
	Key  func(key string) error
	// Refuse maps dotted keys to a message for keys that must never be
	// given (e.g. a password), checked before anything is decoded.
	Refuse map[string]string
	// MaxItems bounds each list and mapping (0: DefaultMaxItems). A longer
	// one is an error at its line, and none of its items is checked.
	MaxItems int
}

// Decode decodes YAML into v (a pointer to a struct whose fields carry yaml
// tags; supported field types: string, bool, int, time.Duration, []string
// (a single string is accepted too), map[string]string, []struct, nested
// structs, and pointers to these (nil when the key is absent). It goes on
// past each problem (the key, item or entry in error is left out) and
// returns them all as Errors; a file that is not YAML at all is one *Error.
func Decode(path string, data []byte, v any, checks Checks) error {
	if len(data) > MaxFileSize {
		return tooLarge(path)
	}
	if checks.MaxItems == 0 {
		checks.MaxItems = DefaultMaxItems
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return &Error{Path: path, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 { // empty file
		return nil
	}
	d := decoder{path: path, checks: checks}
	d.value(doc.Content[0], reflect.ValueOf(v).Elem(), "")
	if len(d.errs) == 0 {
		return nil
	}
	sort.SliceStable(d.errs, func(i, j int) bool { return d.errs[i].Line < d.errs[j].Line })
	return d.errs
}

type decoder struct {
	path   string
	checks Checks
	errs   Errors
}

func (d *decoder) item(key, name, value string) error {
	if d.checks.Item == nil {
		return nil
	}
	return d.checks.Item(key, name, value)
}

var durationType = reflect.TypeOf(time.Duration(0))

// tooMany refuses a list or mapping of more than MaxItems items, at its
// line, before any item is checked.
func (d *decoder) tooMany(n *yaml.Node, key string) bool {
	items := len(n.Content)
	if n.Kind == yaml.MappingNode {
		items /= 2
	}
	if items <= d.checks.MaxItems {
		return false
	}
	d.fail(n, key, "%d items: a list or mapping holds at most %d (docs/config.md#limits)", items, d.checks.MaxItems)
	return true
}

// fail records a problem at n's line; value returns false after it.
func (d *decoder) fail(n *yaml.Node, key, format string, args ...any) bool {
	d.errs = append(d.errs, &Error{Path: d.path, Line: n.Line, Key: key, Msg: fmt.Sprintf(format, args...)})
	return false
}

// value decodes n into v and reports whether it did so without a problem
// (each problem is recorded; what decoded cleanly is kept).
func (d *decoder) value(n *yaml.Node, v reflect.Value, key string) bool {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if !d.noSecrets(n, key) {
		return false
	}
	if isNull(n) {
		return true // "key:" with no value leaves the default
	}
	switch {
	case v.Kind() == reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if !d.value(n, p.Elem(), key) {
			return false
		}
		v.Set(p)
	case v.Type() == durationType:
		if n.Kind != yaml.ScalarNode {
			return d.fail(n, key, "want a duration such as 3s")
		}
		dur, err := time.ParseDuration(n.Value)
		if err != nil {
			return d.fail(n, key, "want a duration such as 3s or 500ms, got %q", n.Value)
		}
		v.SetInt(int64(dur))
	case v.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return d.fail(n, key, "want a mapping of keys, got %s", kindName(n))
		}
		fields := map[string]int{}
		var names []string
		for i := 0; i < v.NumField(); i++ {
			tag := v.Type().Field(i).Tag.Get("yaml")
			if tag == "" || tag == "-" {
				continue
			}
			fields[tag] = i
			names = append(names, tag)
		}
		sort.Strings(names)
		ok := true
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			sub := join(key, k.Value)
			if msg, refused := d.checks.Refuse[sub]; refused {
				ok = d.fail(k, sub, "%s", msg)
				continue
			}
			idx, known := fields[k.Value]
			if !known {
				ok = d.fail(k, sub, "unknown key (known keys%s: %s)", inWhere(key), strings.Join(names, ", "))
				continue
			}
			if seen[k.Value] {
				ok = d.fail(k, sub, "key given twice")
				continue
			}
			seen[k.Value] = true
			if !d.value(val, v.Field(idx), sub) {
				ok = false
				continue
			}
			if d.checks.Key != nil && !isNull(val) { // no value: the default stands, unchecked
				if err := d.checks.Key(sub); err != nil {
					ok = d.fail(k, sub, "%v", err)
				}
			}
		}
		return ok
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String:
		// A single string is accepted where a list is expected (target: valkey-9.0).
		if n.Kind == yaml.ScalarNode {
			if err := d.item(key, "", n.Value); err != nil {
				return d.fail(n, key, "%v", err)
			}
			v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, 1), reflect.ValueOf(n.Value)))
			return true
		}
		if n.Kind != yaml.SequenceNode {
			return d.fail(n, key, "want a list of strings, got %s", kindName(n))
		}
		if d.tooMany(n, key) {
			return false
		}
		ok := true
		out := reflect.MakeSlice(v.Type(), 0, len(n.Content))
		for _, it := range n.Content {
			if it.Kind != yaml.ScalarNode {
				ok = d.fail(it, key, "want a string, got %s", kindName(it))
				continue
			}
			if err := d.item(key, "", it.Value); err != nil {
				ok = d.fail(it, key, "%v", err)
				continue
			}
			out = reflect.Append(out, reflect.ValueOf(it.Value))
		}
		v.Set(out)
		return ok
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct:
		if n.Kind != yaml.SequenceNode {
			return d.fail(n, key, "want a list, got %s", kindName(n))
		}
		if d.tooMany(n, key) {
			return false
		}
		// Set the slice first so Key checks see the items being decoded.
		v.Set(reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content)))
		ok := true
		for i, it := range n.Content {
			if !d.value(it, v.Index(i), fmt.Sprintf("%s[%d]", key, i)) {
				ok = false
			}
		}
		return ok
	case v.Kind() == reflect.Map && v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.String:
		if n.Kind != yaml.MappingNode {
			return d.fail(n, key, "want a mapping such as LA110: off, got %s", kindName(n))
		}
		if d.tooMany(n, key) {
			return false
		}
		ok := true
		m := reflect.MakeMap(v.Type())
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if val.Kind != yaml.ScalarNode {
				ok = d.fail(val, join(key, k.Value), "want a single value, got %s", kindName(val))
				continue
			}
			if m.MapIndex(reflect.ValueOf(k.Value)).IsValid() {
				ok = d.fail(k, join(key, k.Value), "key given twice")
				continue
			}
			if err := d.item(key, k.Value, val.Value); err != nil {
				ok = d.fail(k, key, "%v", err)
				continue
			}
			m.SetMapIndex(reflect.ValueOf(k.Value), reflect.ValueOf(val.Value))
		}
		v.Set(m)
		return ok
	case v.Kind() == reflect.String:
		if n.Kind != yaml.ScalarNode {
			return d.fail(n, key, "want a string, got %s", kindName(n))
		}
		v.SetString(n.Value)
	case v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			if n.Value == "yes" || n.Value == "no" {
				b = n.Value == "yes"
			} else {
				return d.fail(n, key, "want true or false, got %q", n.Value)
			}
		}
		v.SetBool(b)
	case v.Kind() == reflect.Int:
		i, err := strconv.Atoi(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			return d.fail(n, key, "want a whole number, got %q", n.Value)
		}
		v.SetInt(int64(i))
	default:
		return d.fail(n, key, "internal: cannot decode into %s", v.Type())
	}
	return true
}

// noSecrets refuses a value, or a key of a mapping, that looks like it
// holds credentials (a redis:// URL, user:pass@host:port) before anything
// can echo it: passwords never belong in these files, and an error message
// is the most copied text there is. It reports whether n is free of them.
func (d *decoder) noSecrets(n *yaml.Node, key string) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		if secret.InValue(n.Value) {
			return d.fail(n, key, "the value %s", secret.Refusal)
		}
	case yaml.SequenceNode:
		for _, it := range n.Content {
			if it.Kind == yaml.ScalarNode && secret.InValue(it.Value) {
				return d.fail(it, key, "the value %s", secret.Refusal)
			}
		}
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			if k := n.Content[i]; secret.InValue(k.Value) {
				return d.fail(k, key, "a key %s", secret.Refusal)
			}
		}
	}
	return true
}

// isNull reports whether n is YAML's null ("key:" with no value, or ~).
func isNull(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func inWhere(key string) string {
	if key == "" {
		return ""
	}
	return " under " + key
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
}
