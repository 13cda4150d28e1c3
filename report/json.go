package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/lockaudit/lockaudit/report/jsonstream"
	"github.com/lockaudit/lockaudit/report/jsonstrict"
	"github.com/lockaudit/lockaudit/rules"
)

// WriteJSON writes the Run itself (the JSON saved-run format), indented, with a final newline. The
// output is stable: field order is the struct's, findings are sorted by the
// producer (Run.Sort), maps are written with sorted keys, and nil slices the
// schema promises (findings) are written as []. A run read from a schema 1
// file is written in the current schema.
func WriteJSON(w io.Writer, r *Run) error {
	out := *r
	out.SchemaVersion = SchemaVersion
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	out.Plan = PlanOf(r)
	findings, nodes := out.Findings, out.Nodes
	findingMark, nodeMark := Finding{Rule: rules.ID(jsonstream.SentinelString(0)), Severity: rules.Info}, Node{Addr: jsonstream.SentinelString(1)}
	return jsonstream.Write(w, func(sentinels bool) any {
		doc := out
		if sentinels {
			doc.Findings, doc.Nodes = jsonstream.SentinelFor(findings, findingMark), jsonstream.SentinelFor(nodes, nodeMark)
		}
		return &doc
	}, jsonstream.SpliceOf(2, findings, findingMark), jsonstream.SpliceOf(2, nodes, nodeMark))
}

// verdictJSON is the JSON form of a Verdict (docs/json.md). The three path
// words and the reasons are what schema 1 had; from_code and checks are
// schema 2's typed form, from which the words and the reasons follow.
type verdictJSON struct {
	NativeRelease string      `json:"native_release"`
	NativeExtend  string      `json:"native_extend"`
	Lua           string      `json:"lua"`
	Reasons       []string    `json:"reasons,omitempty"`
	FromCode      bool        `json:"from_code,omitempty"`
	Checks        []checkJSON `json:"checks,omitempty"`
}

type checkJSON struct {
	Command   rules.Command `json:"command"`
	Verdict   string        `json:"verdict"` // follows from the reasons
	ReliedOn  bool          `json:"relied_on"`
	Sites     []Site        `json:"sites,omitempty"`
	Nodes     int           `json:"nodes"`
	Supported int           `json:"supported"`
	Reasons   []Reason      `json:"reasons,omitempty"`
}

// words points at the three path words of the JSON form, in path order.
func (j *verdictJSON) words() []*string { return []*string{&j.NativeRelease, &j.NativeExtend, &j.Lua} }

func (v Verdict) MarshalJSON() ([]byte, error) {
	var j verdictJSON
	words := j.words()
	for i, p := range rules.Paths() {
		*words[i] = v.Of(p).Word()
	}
	j.Reasons = v.Strings()
	j.FromCode = v.FromCode
	for _, pv := range v.Paths {
		for _, c := range pv.Checks {
			j.Checks = append(j.Checks, checkJSON{Command: c.Command, Verdict: VerdictWord(pv.Path, c.Safe()), ReliedOn: c.ReliedOn,
				Sites: c.Sites, Nodes: c.Nodes, Supported: c.Supported, Reasons: c.Reasons})
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a verdict of schema 1 or 3 (or 2, when DecodeRun
// says so). Whatever follows from the checks must agree with them: each
// check's word, each path's word, and the reasons' text; a verdict that
// contradicts itself is refused, with the field named.
func (v *Verdict) UnmarshalJSON(data []byte) error {
	if v.schema2 {
		return v.unmarshalV2(data)
	}
	var j verdictJSON
	if err := decodeVerdict(data, &j); err != nil {
		return err
	}
	out, err := pathWords(j.words(), j.FromCode)
	if err != nil {
		return err
	}
	for i, cj := range j.Checks {
		where := fmt.Sprintf("verdict.checks[%d]", i)
		c := Check{Command: cj.Command, ReliedOn: cj.ReliedOn, Sites: cj.Sites, Nodes: cj.Nodes, Supported: cj.Supported, Reasons: cj.Reasons}
		p := c.Command.Path()
		if want := VerdictWord(p, c.Safe()); cj.Verdict != want {
			return &jsonstrict.FieldError{Field: where + ".verdict", Msg: fmt.Sprintf("%q, but its reasons make it %s", cj.Verdict, want)}
		}
		pv := &out.Paths[p]
		if slices.ContainsFunc(pv.Checks, func(x Check) bool { return x.Command == c.Command }) {
			return &jsonstrict.FieldError{Field: where, Msg: c.Command.String() + " is checked twice"}
		}
		pv.Checks = append(pv.Checks, c)
	}
	for _, pv := range out.Paths {
		if len(pv.Checks) == 0 {
			if out.Worded() {
				return &jsonstrict.FieldError{Field: "verdict.checks", Msg: "no check of " + pv.Path.String()}
			}
			continue
		}
		worst := Yes
		for _, c := range pv.Checks {
			worst = Worse(worst, c.Safe())
		}
		if pv.Safe != worst {
			return &jsonstrict.FieldError{Field: "verdict." + pv.Path.String(), Msg: fmt.Sprintf("%q, but its checks make it %s", pv.Word(), VerdictWord(pv.Path, worst))}
		}
	}
	if out.Worded() {
		want := out.Strings()
		for i, r := range j.Reasons {
			if i >= len(want) || r != want[i] {
				return &jsonstrict.FieldError{Field: fmt.Sprintf("verdict.reasons[%d]", i), Msg: fmt.Sprintf("%q does not follow from verdict.checks (the run was edited?)", r)}
			}
		}
		if len(j.Reasons) < len(want) {
			return &jsonstrict.FieldError{Field: "verdict.reasons", Msg: fmt.Sprintf("%d reasons, but verdict.checks give %d", len(j.Reasons), len(want))}
		}
	} else {
		out.Legacy = j.Reasons
	}
	*v = out
	return nil
}

// decodeVerdict decodes the verdict strictly into j.
func decodeVerdict(data []byte, j any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(j); err != nil {
		// Offsets inside the verdict would name the wrong line of the
		// file: keep the message, which names the value.
		var je *jsonstrict.Error
		if errors.As(jsonstrict.Describe(data, err), &je) {
			return &jsonstrict.FieldError{Field: "verdict", Msg: je.Msg}
		}
		return &jsonstrict.FieldError{Field: "verdict", Msg: err.Error()}
	}
	return nil
}

// pathWords is a verdict with each path's word read, and no check.
func pathWords(words []*string, fromCode bool) (Verdict, error) {
	out := Verdict{FromCode: fromCode}
	for i, p := range rules.Paths() {
		safe, err := parseVerdictWord(p, *words[i])
		if err != nil {
			return out, &jsonstrict.FieldError{Field: "verdict." + p.String(), Msg: err.Error()}
		}
		out.Paths = append(out.Paths, PathVerdict{Path: p, Safe: safe})
	}
	return out, nil
}

// verdictV2JSON is a schema_version 2 verdict: its checks' reasons carried
// evidence, promotion, gap and advice as sentences, which cannot be typed
// back.
type verdictV2JSON struct {
	verdictJSON
	Checks []struct {
		checkJSON
		Reasons []struct {
			Kind      ReasonKind `json:"kind"`
			Node      NodeRef    `json:"node"`
			Answer    Answer     `json:"answer"`
			Evidence  string     `json:"evidence,omitempty"`
			Promotion string     `json:"promotion,omitempty"`
			Gap       string     `json:"gap,omitempty"`
			Advice    string     `json:"advice,omitempty"`
		} `json:"reasons,omitempty"`
	} `json:"checks,omitempty"`
}

// unmarshalV2 reads a schema_version 2 verdict as a schema 1 one is read:
// its words, and its reasons as it recorded them (Legacy), which every
// report shows; its checks are read strictly but not kept, since their
// sentences cannot be typed back. The reasons are their wording, word for
// word.
func (v *Verdict) unmarshalV2(data []byte) error {
	var j verdictV2JSON
	if err := decodeVerdict(data, &j); err != nil {
		return err
	}
	out, err := pathWords(j.words(), j.FromCode)
	if err != nil {
		return err
	}
	out.Legacy = j.Reasons
	*v = out
	return nil
}

// DecodeRun reads a saved JSON run strictly: schema_version 1, 2 or 3, every
// field known to that version, exactly one value, and a run that passes
// Validate, because a renderer that met nonsense would print a wrong report
// rather than fail. Errors name the line and column, or the field.
func DecodeRun(data []byte) (*Run, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty input: expected a JSON run written by lockaudit -format json")
	}
	// Read the version first: a run from another schema version is best
	// explained by its version, not by the first field this one lacks.
	var head struct {
		SchemaVersion *int `json:"schema_version"`
		Tool          Tool `json:"tool"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field == "" {
			return nil, fmt.Errorf("not a lockaudit JSON run: the input is a JSON %s, not an object", typeErr.Value)
		}
		return nil, jsonstrict.Describe(data, err)
	}
	if head.SchemaVersion == nil {
		return nil, errors.New("no schema_version field: not a lockaudit JSON run (write one with -format json)")
	}
	version := *head.SchemaVersion
	if version < 1 || version > SchemaVersion {
		by := ""
		if head.Tool.Version != "" {
			by = fmt.Sprintf(" (it was written by %s %s)", head.Tool.Name, head.Tool.Version)
		}
		return nil, &SchemaError{Version: version, Msg: fmt.Sprintf("schema_version %d, but this lockaudit reads schema_version 1 to %d: render it with the lockaudit that wrote it%s", version, SchemaVersion, by)}
	}

	// Words first (a wrong one named by its field), then the typed decode
	// (the place of a wrong type or an unknown field), then what is
	// missing (a missing answer would otherwise read as unknown).
	if err := checkWords(data, false); err != nil {
		return nil, err
	}
	var run Run
	if version == 2 {
		if err := checkV2Verdict(data); err != nil {
			return nil, err
		}
		run.Verdict = &Verdict{schema2: true} // decoded into, when present
	}
	if err := jsonstrict.Decode(data, &run); err != nil {
		var je *jsonstrict.Error
		if errors.As(err, &je) && je.UnknownField != "" {
			je.Msg += fmt.Sprintf(" (not in schema_version %d: was the run written by another lockaudit, or edited?)", version)
		}
		return nil, err
	}
	if err := checkWords(data, true); err != nil {
		return nil, err
	}
	if run.Verdict != nil && run.Verdict.schema2 {
		run.Verdict = nil // the run has no verdict
	}
	if version == 1 {
		if err := upgradeV1(&run); err != nil {
			return nil, err
		}
	}
	// The plan is derived: every renderer makes it again from the run, so
	// an edited plan is never shown.
	run.Plan = nil
	run.dropDerived()
	if err := run.Validate(); err != nil {
		return nil, err
	}
	return &run, nil
}

// checkV2Verdict reads a schema 2 run's verdict on its own first: the
// strict decode of the whole run reports an error inside a field it decoded
// into a preset value (Verdict.schema2) from a fresh one, which would read
// the verdict as schema 3.
func checkV2Verdict(data []byte) error {
	var raw struct {
		Verdict json.RawMessage `json:"verdict"`
	}
	if json.Unmarshal(data, &raw) != nil || len(raw.Verdict) == 0 || string(raw.Verdict) == "null" {
		return nil // the strict decode says what is wrong
	}
	v := Verdict{schema2: true}
	if err := v.UnmarshalJSON(raw.Verdict); err != nil {
		return jsonstrict.Describe(data, err)
	}
	return nil
}

// SchemaError is a run of a schema version this lockaudit does not read.
type SchemaError struct {
	Version int
	Msg     string
}

func (e *SchemaError) Error() string { return e.Msg }

// upgradeV1 brings a schema 1 run to the current model. Schema 1 had no
// typed verdict (its reasons are kept as text, never read) and did not say
// where the uses came from: audit and preflight derived them from the code,
// which is the one place the command name decides anything.
func upgradeV1(r *Run) error {
	if v := r.Verdict; v != nil {
		if v.Worded() || v.FromCode {
			return errors.New("verdict.checks, verdict.from_code: not in schema_version 1 (was the run edited?)")
		}
		v.FromCode = r.Command == "audit" || r.Command == "preflight"
	}
	r.SchemaVersion = 1
	return nil
}

// checkWords checks every closed field whose value is a word — node
// answers and promotability, uses' commands, the verdict's words,
// reasons' kinds and answers — so an error names the field
// ("nodes[2].delifeq: "maybe" is not one of yes, no, unknown") rather than
// guess where a word sits in the file; with missing, it also refuses such
// a field that is absent.
func checkWords(data []byte, missing bool) error {
	var raw struct {
		Uses []struct {
			Command *string `json:"command"`
		} `json:"uses"`
		Nodes   []map[string]any `json:"nodes"`
		Verdict *verdictWords    `json:"verdict"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil // the typed decode says what is wrong, with the place
	}
	wc := wordChecker{missing: missing, answers: answerEnum.allowed()}
	for _, c := range rules.Commands() {
		wc.commands = append(wc.commands, c.String())
	}
	for i, u := range raw.Uses {
		if err := wc.check(fmt.Sprintf("uses[%d].command", i), u.Command, wc.commands); err != nil {
			return err
		}
	}
	for i, n := range raw.Nodes {
		if err := wc.node(fmt.Sprintf("nodes[%d]", i), n); err != nil {
			return err
		}
	}
	if raw.Verdict != nil {
		return wc.verdict(raw.Verdict)
	}
	return nil
}

// verdictWords are the verdict's words as the JSON form has them.
type verdictWords struct {
	NativeRelease *string `json:"native_release"`
	NativeExtend  *string `json:"native_extend"`
	Lua           *string `json:"lua"`
	Checks        []struct {
		Command *string `json:"command"`
		Reasons []struct {
			Kind   *string `json:"kind"`
			Answer *string `json:"answer"`
		} `json:"reasons"`
	} `json:"checks"`
}

// wordChecker checks closed fields: their allowed words, and with missing
// that they are there.
type wordChecker struct {
	missing           bool
	commands, answers []string
}

func (wc wordChecker) check(field string, v *string, allowed []string) error {
	switch {
	case v != nil:
		return oneOf(field, *v, allowed)
	case wc.missing:
		return fmt.Errorf("%s: missing", field)
	}
	return nil
}

// node checks a node's promotability and answers. A field that is not a
// string is the typed decode's to report, with its place.
func (wc wordChecker) node(where string, n map[string]any) error {
	field := func(name string) *string {
		s, ok := n[name].(string)
		if !ok {
			return nil
		}
		return &s
	}
	if v, ok := n["promotable"]; !ok || isString(v) {
		if err := wc.check(where+".promotable", field("promotable"), promotableEnum.allowed()); err != nil {
			return err
		}
	}
	for _, c := range rules.Commands() {
		name := AnswerField(c)
		if v, ok := n[name]; ok && !isString(v) {
			continue
		}
		if err := wc.check(where+"."+name, field(name), wc.answers); err != nil {
			return err
		}
	}
	return nil
}

// verdict checks the verdict's path words and its checks' commands and
// reasons.
func (wc wordChecker) verdict(v *verdictWords) error {
	for i, w := range []*string{v.NativeRelease, v.NativeExtend, v.Lua} {
		p := rules.Paths()[i]
		if err := wc.check("verdict."+p.String(), w, VerdictWords(p)); err != nil {
			return err
		}
	}
	for i, c := range v.Checks {
		where := fmt.Sprintf("verdict.checks[%d]", i)
		if err := wc.check(where+".command", c.Command, wc.commands); err != nil {
			return err
		}
		for j, r := range c.Reasons {
			at := fmt.Sprintf("%s.reasons[%d]", where, j)
			if err := wc.check(at+".kind", r.Kind, reasonKindEnum.allowed()); err != nil {
				return err
			}
			if err := wc.check(at+".answer", r.Answer, wc.answers); err != nil {
				return err
			}
		}
	}
	return nil
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}
