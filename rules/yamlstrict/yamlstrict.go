// Package yamlstrict decodes YAML files that users write by hand (the
// config file, inventories) into Go structs, and reports the first unknown
// key, wrongly typed value or invalid item with its file, line and dotted
// key path. yaml.v3's own KnownFields errors name Go types, not the user's
// keys, hence this walker.
package yamlstrict

import (
	"fmt"
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
}

// Decode decodes YAML into v (a pointer to a struct whose fields carry yaml
// tags; supported field types: string, bool, int, time.Duration, []string
// (a single string is accepted too), map[string]string, []struct, nested
// structs, and pointers to these (nil when the key is absent).
func Decode(path string, data []byte, v any, checks Checks) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return &Error{Path: path, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 { // empty file
		return nil
	}
	d := decoder{path: path, checks: checks}
	return d.value(doc.Content[0], reflect.ValueOf(v).Elem(), "")
}

type decoder struct {
	path   string
	checks Checks
}

func (d *decoder) item(key, name, value string) error {
	if d.checks.Item == nil {
		return nil
	}
	return d.checks.Item(key, name, value)
}

var durationType = reflect.TypeOf(time.Duration(0))

func (d *decoder) errf(n *yaml.Node, key, format string, args ...any) error {
	return &Error{Path: d.path, Line: n.Line, Key: key, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) value(n *yaml.Node, v reflect.Value, key string) error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if err := d.noSecrets(n, key); err != nil {
		return err
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil // "key:" with no value leaves the default
	}
	switch {
	case v.Kind() == reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if err := d.value(n, p.Elem(), key); err != nil {
			return err
		}
		v.Set(p)
	case v.Type() == durationType:
		if n.Kind != yaml.ScalarNode {
			return d.errf(n, key, "want a duration such as 3s")
		}
		dur, err := time.ParseDuration(n.Value)
		if err != nil {
			return d.errf(n, key, "want a duration such as 3s or 500ms, got %q", n.Value)
		}
		v.SetInt(int64(dur))
	case v.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return d.errf(n, key, "want a mapping of keys, got %s", kindName(n))
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
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			sub := join(key, k.Value)
			if msg, ok := d.checks.Refuse[sub]; ok {
				return d.errf(k, sub, "%s", msg)
			}
			idx, ok := fields[k.Value]
			if !ok {
				return d.errf(k, sub, "unknown key (known keys%s: %s)", inWhere(key), strings.Join(names, ", "))
			}
			if seen[k.Value] {
				return d.errf(k, sub, "key given twice")
			}
			seen[k.Value] = true
			if err := d.value(val, v.Field(idx), sub); err != nil {
				return err
			}
			if d.checks.Key != nil {
				if err := d.checks.Key(sub); err != nil {
					return d.errf(k, sub, "%v", err)
				}
			}
		}
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String:
		// A single string is accepted where a list is expected (target: valkey-9.0).
		if n.Kind == yaml.ScalarNode {
			if err := d.item(key, "", n.Value); err != nil {
				return d.errf(n, key, "%v", err)
			}
			v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, 1), reflect.ValueOf(n.Value)))
			return nil
		}
		if n.Kind != yaml.SequenceNode {
			return d.errf(n, key, "want a list of strings, got %s", kindName(n))
		}
		out := reflect.MakeSlice(v.Type(), 0, len(n.Content))
		for _, it := range n.Content {
			if it.Kind != yaml.ScalarNode {
				return d.errf(it, key, "want a string, got %s", kindName(it))
			}
			if err := d.item(key, "", it.Value); err != nil {
				return d.errf(it, key, "%v", err)
			}
			out = reflect.Append(out, reflect.ValueOf(it.Value))
		}
		v.Set(out)
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct:
		if n.Kind != yaml.SequenceNode {
			return d.errf(n, key, "want a list, got %s", kindName(n))
		}
		// Set the slice first so Key checks see the items being decoded.
		v.Set(reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content)))
		for i, it := range n.Content {
			if err := d.value(it, v.Index(i), fmt.Sprintf("%s[%d]", key, i)); err != nil {
				return err
			}
		}
	case v.Kind() == reflect.Map && v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.String:
		if n.Kind != yaml.MappingNode {
			return d.errf(n, key, "want a mapping such as LA110: off, got %s", kindName(n))
		}
		m := reflect.MakeMap(v.Type())
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if val.Kind != yaml.ScalarNode {
				return d.errf(val, join(key, k.Value), "want a single value, got %s", kindName(val))
			}
			if m.MapIndex(reflect.ValueOf(k.Value)).IsValid() {
				return d.errf(k, join(key, k.Value), "key given twice")
			}
			if err := d.item(key, k.Value, val.Value); err != nil {
				return d.errf(k, key, "%v", err)
			}
			m.SetMapIndex(reflect.ValueOf(k.Value), reflect.ValueOf(val.Value))
		}
		v.Set(m)
	case v.Kind() == reflect.String:
		if n.Kind != yaml.ScalarNode {
			return d.errf(n, key, "want a string, got %s", kindName(n))
		}
		v.SetString(n.Value)
	case v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			if n.Value == "yes" || n.Value == "no" {
				b, err = n.Value == "yes", nil
			} else {
				return d.errf(n, key, "want true or false, got %q", n.Value)
			}
		}
		v.SetBool(b)
	case v.Kind() == reflect.Int:
		i, err := strconv.Atoi(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			return d.errf(n, key, "want a whole number, got %q", n.Value)
		}
		v.SetInt(int64(i))
	default:
		return d.errf(n, key, "internal: cannot decode into %s", v.Type())
	}
	return nil
}

// noSecrets refuses a value, or a key of a mapping, that looks like it
// holds credentials (a redis:// URL, user:pass@host:port) before anything
// can echo it: passwords never belong in these files, and an error message
// is the most copied text there is.
func (d *decoder) noSecrets(n *yaml.Node, key string) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if secret.InValue(n.Value) {
			return d.errf(n, key, "the value %s", secret.Refusal)
		}
	case yaml.SequenceNode:
		for _, it := range n.Content {
			if it.Kind == yaml.ScalarNode && secret.InValue(it.Value) {
				return d.errf(it, key, "the value %s", secret.Refusal)
			}
		}
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			if k := n.Content[i]; secret.InValue(k.Value) {
				return d.errf(k, key, "a key %s", secret.Refusal)
			}
		}
	}
	return nil
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
