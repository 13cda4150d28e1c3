package report

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/safetext"
)

// needsEscape is the check Escape makes.
var needsEscape = safetext.Needs

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, ünïcode → ok \\ kept", "plain text, ünïcode → ok \\ kept"},
		{"\x1b[2J\x1b[HSAFE", `\x1b[2J\x1b[HSAFE`},                  // clear screen, home
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\a`},                      // OSC: window title
		{"\x1b]8;;http://x\x1b\\link", `\x1b]8;;http://x\x1b\link`}, // OSC 8 hyperlink
		{"UNSAFE\rSAFE  ", `UNSAFE\rSAFE  `},                        // carriage return overwrites
		{"a\nVerdict: SAFE", `a\nVerdict: SAFE`},                    // a forged line
		{"tab\there", `tab\there`},
		{"\x9b2J", `\x9b2J`},               // C1 CSI
		{"del\x7f", `del\x7f`},             // DEL
		{"bad \xff byte", `bad \xff byte`}, // not UTF-8
		{"abc\u202edcba", `abc\u202edcba`}, // right-to-left override
		{"\u2066x\u2069", `\u2066x\u2069`}, // isolates
	} {
		got := Escape(tc.in)
		if got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := Escape(got); again != got {
			t.Errorf("escaping twice changes %q to %q", got, again)
		}
	}
	if got := EscapeLines("first\x1b[2J\nsecond\r"); got != "first\\x1b[2J\nsecond\\r" {
		t.Errorf("EscapeLines: %q", got)
	}
}

const hostile = "\x1b]0;SAFE\x07\x1b[2J\rSAFE\nVerdict: SAFE\u202e\xff"

// fillStrings sets every string (and map key and value) reachable from v
// to hostile, and gives every nil pointer, slice and map one element, so
// a field added to Run later is covered without editing this test.
func fillStrings(v reflect.Value) { fillStringsWith(v, hostile) }

func fillStringsWith(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStringsWith(v.Elem(), s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillStringsWith(v.Field(i), s)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		}
		for i := 0; i < v.Len(); i++ {
			fillStringsWith(v.Index(i), s)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillStringsWith(k, s)
		fillStringsWith(e, s)
		m.SetMapIndex(k, e)
		v.Set(m)
	}
}

// stringsWith lists the strings reachable from v that contain sub.
func stringsWith(v reflect.Value, path, sub string, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		if strings.Contains(v.String(), sub) {
			*out = append(*out, path)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			stringsWith(v.Elem(), path, sub, out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				stringsWith(v.Field(i), path+"."+v.Type().Field(i).Name, sub, out)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			stringsWith(v.Index(i), path+"[]", sub, out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			stringsWith(k, path+"{key}", sub, out)
			stringsWith(v.MapIndex(k), path+"{value}", sub, out)
		}
	}
}

// TestRedactCoversEveryString: Redact takes the secret out of every string
// of a run (the walk escaping uses), in a copy, and every report of the
// copy is free of it.
func TestRedactCoversEveryString(t *testing.T) {
	const secret = "hunter2-secret"
	var r Run
	fillStringsWith(reflect.ValueOf(&r).Elem(), "LOCKAUDIT_PASSWORD="+secret+"\x00next line")
	var before []string
	stringsWith(reflect.ValueOf(&r).Elem(), "Run", secret, &before)
	if len(before) < 40 {
		t.Fatalf("the run has only %d strings with the secret: %v", len(before), before)
	}
	red := r.Redact(func(s string) string { return strings.ReplaceAll(s, secret, "[redacted]") })
	var left []string
	stringsWith(reflect.ValueOf(red).Elem(), "Run", secret, &left)
	if len(left) > 0 {
		t.Errorf("not redacted: %s", strings.Join(left, ", "))
	}
	var after []string
	stringsWith(reflect.ValueOf(&r).Elem(), "Run", secret, &after)
	if !slices.Equal(before, after) {
		t.Error("Redact changed the run it copied")
	}
}

// unsafeStrings lists the strings reachable from v that hold a character
// Escape would escape.
func unsafeStrings(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if path == "Run.Errors[].Message" || path == "Run.Engagement.Notes" {
			s = strings.ReplaceAll(s, "\n", "") // a multi-line error keeps its lines (EscapeLines)
		}
		if needsEscape(s) {
			*out = append(*out, path)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			unsafeStrings(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				unsafeStrings(v.Field(i), path+"."+v.Type().Field(i).Name, out)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			unsafeStrings(v.Index(i), path+"[]", out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			unsafeStrings(k, path+"{key}", out)
			unsafeStrings(v.MapIndex(k), path+"{value}", out)
		}
	}
}

// TestEscapedCoversEveryString: the copy the terminal formats print has no
// raw control character in any field, and the run itself is untouched.
func TestEscapedCoversEveryString(t *testing.T) {
	var r Run
	fillStrings(reflect.ValueOf(&r).Elem())
	var before []string
	unsafeStrings(reflect.ValueOf(&r).Elem(), "Run", &before)
	if len(before) < 40 {
		t.Fatalf("the hostile run has only %d strings to escape: %v", len(before), before)
	}
	var left []string
	unsafeStrings(reflect.ValueOf(r.Escaped()).Elem(), "Run", &left)
	if len(left) > 0 {
		t.Errorf("not escaped: %s", strings.Join(left, ", "))
	}
	var after []string
	unsafeStrings(reflect.ValueOf(&r).Elem(), "Run", &after)
	if !slices.Equal(before, after) {
		t.Error("escaped changed the run it copied")
	}
}

func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"127.0.0.1:6379", "127.0.0.1:6379"},
		{"./...", "./..."},
		{"valkey-9.0,redis-7.2", "valkey-9.0,redis-7.2"},
		{"", "''"},
		{"$(id)", "'$(id)'"},
		{"it's", `'it'\''s'`},
		{"a b", "'a b'"},
		{"~", "'~'"},
	} {
		if got := ShellQuote(tc.in); got != tc.want {
			t.Errorf("ShellQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
