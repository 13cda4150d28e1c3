package resp

import (
	"bytes"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in, want string
	}{
		{"+OK\r\n", `"OK"`},
		{"-ERR unknown command 'X'\r\n", "(error) ERR unknown command 'X'"},
		{"!9\r\nNOPERM no\r\n", "(error) NOPERM no"},
		{":-12\r\n", "-12"},
		{"$-1\r\n", "(nil)"},
		{"*-1\r\n", "(nil)"},
		{"_\r\n", "(nil)"},
		{"#t\r\n", "true"},
		{",1.5\r\n", `"1.5"`},
		{"$5\r\na\r\nbc\r\n", `"a\r\nbc"`},
		{"=8\r\ntxt:info\r\n", `"info"`},
		{"*2\r\n$1\r\na\r\n:1\r\n", `["a" 1]`},
		{"%1\r\n+k\r\n*1\r\n_\r\n", `{"k": [(nil)]}`},
		{"|1\r\n+ttl\r\n:3\r\n+v\r\n", `"v"`}, // attributes are skipped
		{"~2\r\n+a\r\n+b\r\n", `["a" "b"]`},
	} {
		v, err := Parse([]byte(tt.in))
		if err != nil || v.String() != tt.want {
			t.Errorf("Parse(%q) = %s, %v; want %s", tt.in, v, err, tt.want)
		}
	}
	for _, bad := range []string{"", "+OK", "+OK\n", "?\r\n", ":x\r\n", "$3\r\nab\r\n", "$2\r\nabcd\r\n", "*2\r\n+a\r\n", "=3\r\nabc\r\n", "#x\r\n", "+OK\r\n+extra\r\n", "$99999999999\r\n", strings.Repeat("*1\r\n", 100) + "+a\r\n"} {
		if v, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) = %s, want an error", bad, v)
		}
	}
}

func TestWriteRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "SET", "k", "a b\r\nc", ""); err != nil {
		t.Fatal(err)
	}
	v, err := Parse(b.Bytes())
	if err != nil || v.String() != `["SET" "k" "a b\r\nc" ""]` {
		t.Errorf("round trip: %s, %v", v, err)
	}
}

func TestFieldAndPairs(t *testing.T) {
	m, _ := Parse([]byte("%2\r\n+name\r\n+set\r\n+since\r\n+1.0.0\r\n"))
	flat, _ := Parse([]byte("*4\r\n+name\r\n+set\r\n+since\r\n+1.0.0\r\n"))
	for _, v := range []Value{m, flat} {
		if f, ok := v.Field("SINCE"); !ok || f.Str != "1.0.0" {
			t.Errorf("Field(since) of %s = %s, %v", v, f, ok)
		}
	}
	odd, _ := Parse([]byte("*1\r\n+name\r\n"))
	if _, ok := odd.Pairs(); ok {
		t.Error("an odd-length array has no pairs")
	}
}

func TestInfoFields(t *testing.T) {
	got := InfoFields("# Replication\r\nrole:master\r\nslave0:ip=127.0.0.1,port=7001,state=online\r\n\r\n# CPU\r\nused_cpu_sys:0.1\r\nno colon\r\n")
	want := map[string]string{"role": "master", "slave0": "ip=127.0.0.1,port=7001,state=online", "used_cpu_sys": "0.1"}
	if len(got) != len(want) {
		t.Errorf("InfoFields = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("InfoFields[%s] = %q, want %q", k, got[k], v)
		}
	}
}

func TestFields(t *testing.T) {
	m, _ := Parse([]byte("%4\r\n+name\r\n+mymaster\r\n+port\r\n:6379\r\n+down\r\n#f\r\n+lag\r\n,0.5\r\n"))
	flat, _ := Parse([]byte("*6\r\n$4\r\nname\r\n$8\r\nmymaster\r\n$4\r\nport\r\n$4\r\n6379\r\n$3\r\nlag\r\n$3\r\n0.5\r\n"))
	for _, v := range []Value{m, flat} {
		got, ok := v.Fields()
		if !ok || len(got) != 3 || got["name"] != "mymaster" || got["port"] != "6379" || got["lag"] != "0.5" {
			t.Errorf("Fields of %s = %v, %v; want name, port and lag as text (the boolean left out)", v, got, ok)
		}
	}
	for _, in := range []string{"*1\r\n+name\r\n", "*2\r\n:1\r\n+v\r\n", "+OK\r\n"} {
		v, _ := Parse([]byte(in))
		if got, ok := v.Fields(); ok {
			t.Errorf("Fields of %s = %v, want not ok", v, got)
		}
	}
}
