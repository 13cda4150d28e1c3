package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockaudit/lockaudit/rules"
)

// savedRun is the JSON of a vet run with the given findings.
func savedRun(t *testing.T, findings ...Finding) []byte {
	t.Helper()
	r := &Run{SchemaVersion: SchemaVersion, Tool: Tool{Name: "lockaudit", Version: "test"}, Command: "vet",
		Packages: []string{"./..."}, Rules: []string{"LA103"}, Findings: findings}
	var b bytes.Buffer
	if err := WriteJSON(&b, r.Prepared()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func la103(msg string) Finding {
	return Finding{Rule: "LA103", Severity: rules.Error, Message: msg, Pos: &Position{File: "a.go", Line: 1, Col: 1}}
}

// A run whose texts are longer than MaxRunText (a scan of huge key
// names writes one) is read with each such text cut, saying how much was
// cut, and nothing else changed; shorter texts are kept whole.
func TestReadRunCutsLongTexts(t *testing.T) {
	long := "plain DEL releases lock key \"" + strings.Repeat("é", MaxRunText) + "\"" // 2 MiB of text, cut inside a character
	escaped := strings.Repeat("\x1b", MaxRunText/3)                                   // \u001b escapes: 6 bytes each
	short := "plain DEL releases lock key \"lock:a\""
	data := savedRun(t, la103(long), la103(escaped), la103(short))
	r, err := ReadRun(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 3 {
		t.Fatalf("%d findings, want 3", len(r.Findings))
	}
	for i, f := range r.Findings[:2] {
		head, note, ok := strings.Cut(f.Message, "…[")
		if !ok || !strings.HasSuffix(note, " more bytes cut]") {
			t.Errorf("finding %d: message not cut: ends %q", i, f.Message[max(0, len(f.Message)-40):])
			continue
		}
		if !utf8.ValidString(head) || len(head) > MaxRunText {
			t.Errorf("finding %d: kept %d bytes (valid UTF-8: %v), want at most %d whole characters", i, len(head), utf8.ValidString(head), MaxRunText)
		}
	}
	if !strings.HasPrefix(r.Findings[0].Message, long[:1000]) {
		t.Errorf("cut message does not begin as the original")
	}
	if r.Findings[1].Message[:5] != "\x1b\x1b\x1b\x1b\x1b" {
		t.Errorf("escaped message: begins %q", r.Findings[1].Message[:5])
	}
	if r.Findings[2].Message != short {
		t.Errorf("short message changed: %q", r.Findings[2].Message)
	}
	// What is cut is said: the first message lost 2 MiB plus its quote
	// bytes minus what was kept.
	var dropped int
	if _, err := fmt.Sscanf(r.Findings[0].Message[strings.LastIndex(r.Findings[0].Message, "…[")+len("…["):], "%d", &dropped); err != nil || dropped < MaxRunText {
		t.Errorf("cut note says %d bytes (%v), want at least %d", dropped, err, MaxRunText)
	}
}

// A run that stays past MaxRunKept once its texts are cut, an endless
// input and one with too many objects are refused with ErrRunTooLarge,
// having read no more than the limits.
func TestReadRunRefusesTooLarge(t *testing.T) {
	var fs []Finding
	for i := range MaxRunKept / 150 {
		fs = append(fs, la103(fmt.Sprintf("plain DEL releases lock key \"lock:%d\"", i)))
	}
	big := savedRun(t, fs...)
	if len(big) <= MaxRunKept {
		t.Fatalf("test run of %d bytes is not past MaxRunKept", len(big))
	}
	endless := io.MultiReader(strings.NewReader(`{"schema_version": 2, "findings": [`), repeatReader(" "))
	objects := io.MultiReader(strings.NewReader(`{"schema_version": 2, "findings": [`), repeatReader("{},"))
	for name, in := range map[string]io.Reader{"kept": bytes.NewReader(big), "endless": endless, "objects": objects} {
		_, err := ReadRun(in)
		if !errors.Is(err, ErrRunTooLarge) {
			t.Errorf("%s: err = %v, want ErrRunTooLarge", name, err)
			continue
		}
		if !strings.Contains(err.Error(), "docs/reliability.md#saved-runs") {
			t.Errorf("%s: error does not point at the documented limits: %v", name, err)
		}
	}

	// A file past MaxRunInput is refused from its size, unread.
	f, err := os.Create(t.TempDir() + "/huge.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(MaxRunInput + 1); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRun(f); !errors.Is(err, ErrRunTooLarge) || !strings.Contains(err.Error(), "larger than 512 MiB") {
		t.Errorf("sparse file past MaxRunInput: err = %v", err)
	}
}

// A run within the limits reads exactly as DecodeRun reads it.
func TestReadRunSameAsDecodeRun(t *testing.T) {
	for _, name := range []string{"testdata/full.json", "testdata/probe-cluster.json", "testdata/audit-unsafe.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := DecodeRun(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadRun(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var a, b bytes.Buffer
		if err := WriteJSON(&a, want.Prepared()); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&b, got.Prepared()); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: ReadRun and DecodeRun differ", name)
		}
	}
}

// repeatReader repeats s without end.
type repeatReader string

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r[i%len(r)]
	}
	return len(p) - len(p)%len(r), nil
}

// TestSchema2Verdict: a schema_version 2 run is read as a schema 1 run is
// — its verdict's words and its reasons as recorded, shown as such — and
// its sentence-holding checks are never taken for schema 3's typed ones,
// nor the other way round.
func TestSchema2Verdict(t *testing.T) {
	data, err := os.ReadFile(realRuns[2])
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodeRun(data)
	if err != nil {
		t.Fatal(err)
	}
	v := r.Verdict
	if v == nil || v.Worded() || len(v.Legacy) == 0 || !v.FromCode || v.Of(rules.NativeRelease).Safe != No {
		t.Fatalf("schema 2 verdict read as %+v", v)
	}
	if got := v.Strings(); !slices.Equal(got, v.Legacy) {
		t.Errorf("the reasons every report shows are %q, not the recorded ones", got)
	}
	// The same verdict under schema_version 3: its reasons hold sentences.
	as3 := bytes.Replace(data, []byte(`"schema_version": 2`), []byte(`"schema_version": 3`), 1)
	if _, err := DecodeRun(as3); err == nil || !strings.Contains(err.Error(), "verdict: checks[0].reasons[0].") {
		t.Errorf("a schema 2 verdict labelled 3: %v", err)
	}
	// A schema 3 verdict labelled 2: its evidence is an object.
	cur, err := os.ReadFile(realRuns[3])
	if err != nil {
		t.Fatal(err)
	}
	as2 := bytes.Replace(cur, []byte(`"schema_version": 3`), []byte(`"schema_version": 2`), 1)
	if _, err := DecodeRun(as2); err == nil || !strings.Contains(err.Error(), "verdict: checks[0].reasons[0].evidence") {
		t.Errorf("a schema 3 verdict labelled 2: %v", err)
	}
}
