package render

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/jsonstream"

	"github.com/lockaudit/lockaudit/rules"
)

func init() { registerFormat("sarif", renderSARIF) }

// SARIF 2.1.0 as GitHub code scanning ingests it (checked in tests against
// the OASIS schema and, when available, Microsoft's SARIF Multitool with
// GitHub's ingestion rules).
//
// Design:
//   - one run; tool.driver.rules holds a catalog entry for every rule that
//     ran (Run.Rules) or produced a finding, sorted by ID; results point at
//     them by ruleId and ruleIndex;
//   - a code finding is a result with a physicalLocation: artifactLocation
//     uri relative to the module root with uriBaseId %SRCROOT%, and a region
//     with startLine and startColumn (bytes, as Go counts), and the source
//     line as a contextRegion snippet;
//   - a node finding (probe, audit) has no file: its location is a logical
//     location naming the node (kind "resource"), the message starts with
//     "node ADDR:", and properties.node carries the address;
//   - a suppressed finding keeps its result and gets suppressions
//     [{kind: inSource|external, justification}], so GitHub shows it as
//     dismissed instead of losing it;
//   - partialFingerprints["lockaudit/v1"] hashes rule, file and the
//     whitespace-normalised source line (or rule and node), so an alert
//     survives unrelated edits that move it;
//   - run errors (packages that did not load) become
//     invocations[0].toolExecutionNotifications with
//     executionSuccessful=false;
//   - run.properties carries the command, target, uses and verdict, so the
//     file still holds the whole answer for audit runs.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// InformationURI is the project's home, used in SARIF and reports.
	InformationURI = rules.Home
	srcRoot        = "%SRCROOT%"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	AutomationDetails  *sarifAutomation            `json:"automationDetails,omitempty"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds"`
	Invocations        []sarifInvocation           `json:"invocations"`
	Results            []sarifResult               `json:"results"`
	ColumnKind         string                      `json:"columnKind"`
	Properties         *sarifRunProps              `json:"properties,omitempty"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifRunProps struct {
	Command  string          `json:"command"`
	Target   string          `json:"target,omitempty"`
	Packages []string        `json:"packages,omitempty"`
	Uses     []report.Use    `json:"uses,omitempty"`
	Topology string          `json:"topology,omitempty"`
	Verdict  *report.Verdict `json:"verdict,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	Help                 sarifHelp       `json:"help"`
	HelpURI              string          `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           sarifRuleProps  `json:"properties"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags       []string `json:"tags"`
	Precision  string   `json:"precision"`
	MinServers []string `json:"min_servers,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	BaselineState       string             `json:"baselineState,omitempty"` // lockaudit diff: new, unchanged, absent
	Properties          *sarifResultProps  `json:"properties,omitempty"`
}

type sarifResultProps struct {
	Node string `json:"node,omitempty"`
	// ID and Risk are the finding's stable ID and risk rating, as the
	// other reports show them.
	ID   string `json:"id,omitempty"`
	Risk string `json:"risk,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
	ContextRegion    *sarifRegion     `json:"contextRegion,omitempty"`
}

type sarifArtifactLoc struct {
	URI         string     `json:"uri,omitempty"`
	URIBaseID   string     `json:"uriBaseId,omitempty"`
	Description *sarifText `json:"description,omitempty"`
}

type sarifRegion struct {
	StartLine   int        `json:"startLine"`
	StartColumn int        `json:"startColumn,omitempty"`
	Snippet     *sarifText `json:"snippet,omitempty"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

func renderSARIF(w io.Writer, r *report.Run, _ Options) error { return writeSARIF(w, r, nil) }

// writeSARIF writes r as SARIF; states, when set, gives each finding's
// baselineState (a comparison of two runs).
func writeSARIF(w io.Writer, r *report.Run, states []string) error {
	descs, index := sarifRules(r)
	// Each result is made as it is written: a log of a large run is never
	// held whole (jsonstream.Write).
	result := func(i int) sarifResult {
		res := sarifResultFor(r.Findings[i], index[string(r.Findings[i].Rule)])
		if states != nil {
			res.BaselineState = states[i]
		}
		return res
	}
	run := sarifRunOf(r, descs)
	mark := sarifResult{RuleID: jsonstream.SentinelString(2)}
	return jsonstream.Write(w, func(sentinels bool) any {
		doc := run
		switch {
		case sentinels && len(r.Findings) > 0:
			doc.Results = []sarifResult{mark}
		case !sentinels:
			for i := range r.Findings {
				doc.Results = append(doc.Results, result(i))
			}
		}
		return sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{doc}}
	}, jsonstream.Splice{Depth: 4, Sentinel: mark, N: len(r.Findings), Elem: func(i int) any { return result(i) }})
}

// sarifRules describes every rule the run ran or a finding names, sorted
// by ID, and gives each ID its index in that list.
func sarifRules(r *report.Run) ([]sarifRule, map[string]int) {
	ids := map[string]bool{}
	for _, id := range r.Rules {
		ids[id] = true
	}
	for _, f := range r.Findings {
		ids[string(f.Rule)] = true
	}
	var sorted []string
	for id := range ids {
		sorted = append(sorted, id)
	}
	sort.Strings(sorted)
	index := map[string]int{}
	descs := []sarifRule{}
	for i, id := range sorted {
		index[id] = i
		descs = append(descs, sarifRuleFor(id))
	}
	return descs, index
}

// sarifRunOf is the SARIF run of r without its results: the tool and its
// rules, the invocation with the run's errors, and lockaudit's own
// properties (the verdict among them).
func sarifRunOf(r *report.Run, descs []sarifRule) sarifRun {
	inv := sarifInvocation{ExecutionSuccessful: len(r.Errors) == 0}
	for _, e := range r.Errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Level:   "error",
			Message: sarifText{Text: e.Where + ": " + e.Message},
		})
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           r.Tool.Name,
			Version:        strings.TrimPrefix(r.Tool.Version, "v"), // SARIF wants it to start with a digit
			InformationURI: InformationURI,
			Rules:          descs,
		}},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{
			srcRoot: {Description: &sarifText{Text: "The root of the Go module that was analysed (the directory holding go.mod)."}},
		},
		Invocations: []sarifInvocation{inv},
		Results:     []sarifResult{},
		ColumnKind:  "utf16CodeUnits",
		Properties: &sarifRunProps{
			Command:  r.Command,
			Target:   r.Target,
			Packages: r.Packages,
			Uses:     r.Uses,
			Topology: r.Topology,
			Verdict:  r.Verdict,
		},
	}
	if run.Tool.Driver.Name == "" {
		run.Tool.Driver.Name = "lockaudit"
	}
	if r.Command != "" {
		// GitHub keeps one analysis per category; vet and audit uploads of
		// the same commit must not replace each other.
		run.AutomationDetails = &sarifAutomation{ID: "lockaudit/" + r.Command + "/"}
	}
	return run
}

// sarifRuleFor builds a rule descriptor from the catalog. A rule the catalog
// does not know (a finding from a newer lockaudit re-rendered by an older
// one) still gets a valid descriptor.
func sarifRuleFor(id string) sarifRule {
	r, ok := rules.Lookup(id)
	if !ok {
		text := "Rule " + id + " is not in this lockaudit's catalog."
		return sarifRule{
			ID: id, Name: id,
			ShortDescription:     sarifText{Text: text},
			FullDescription:      sarifText{Text: text},
			Help:                 sarifHelp{Text: text, Markdown: text},
			DefaultConfiguration: sarifRuleConfig{Level: "warning"},
			Properties:           sarifRuleProps{Tags: []string{"distributed-lock"}, Precision: "high"},
		}
	}
	tags := []string{"distributed-lock", "valkey", "redis", string(r.Kind)}
	return sarifRule{
		ID:                   string(r.ID),
		Name:                 r.Name,
		ShortDescription:     sarifText{Text: r.Title},
		FullDescription:      sarifText{Text: r.Summary()},
		Help:                 sarifHelp{Text: r.Doc(), Markdown: r.Markdown()},
		HelpURI:              r.URL(),
		DefaultConfiguration: sarifRuleConfig{Level: r.Severity.SARIFLevel()},
		Properties:           sarifRuleProps{Tags: tags, Precision: "high", MinServers: r.MinServers},
	}
}

func sarifResultFor(f report.Finding, ruleIndex int) sarifResult {
	res := sarifResult{
		RuleID:    string(f.Rule),
		RuleIndex: ruleIndex,
		Level:     f.Severity.SARIFLevel(),
		Message:   sarifText{Text: f.Message},
	}
	if !f.Severity.Valid() {
		res.Level = "warning"
	}
	switch {
	case f.Pos != nil:
		// SARIF lines and columns start at 1: a position outside that
		// (a hand-edited run) keeps its file and loses the region rather
		// than making the log schema-invalid.
		phys := &sarifPhysical{ArtifactLocation: sarifFile(f.Pos.File)}
		if f.Pos.Line >= 1 {
			phys.Region = &sarifRegion{StartLine: f.Pos.Line, StartColumn: max(f.Pos.Col, 0)}
		}
		if f.Source != "" && phys.Region != nil {
			// The line is context, not the region itself; a generated
			// file's line of megabytes is cut.
			phys.ContextRegion = &sarifRegion{StartLine: f.Pos.Line, Snippet: &sarifText{Text: report.CutSource(f.Source)}}
		}
		res.Locations = []sarifLocation{{PhysicalLocation: phys}}
		res.PartialFingerprints = map[string]string{"lockaudit/v1": fingerprint(string(f.Rule), f.Pos.File, strings.Join(strings.Fields(f.Source), " "))}
	default:
		res.Message.Text = "node " + f.Node + ": " + f.Message
		res.Locations = []sarifLocation{{LogicalLocations: []sarifLogical{{Name: f.Node, FullyQualifiedName: "node:" + f.Node, Kind: "resource"}}}}
		res.Properties = &sarifResultProps{Node: f.Node}
		res.PartialFingerprints = map[string]string{"lockaudit/v1": fingerprint(string(f.Rule), "node:"+f.Node, "")}
	}
	if f.ID != "" {
		if res.Properties == nil {
			res.Properties = &sarifResultProps{}
		}
		res.Properties.ID = f.ID
		if f.Risk != nil {
			res.Properties.Risk = f.Risk.Rating
		}
	}
	if s := f.Suppressed; s != nil {
		kind := s.Kind
		if kind != "inSource" {
			kind = "external" // baseline, config, anything else
		}
		res.Suppressions = []sarifSuppression{{Kind: kind, Justification: s.Justification}}
	}
	return res
}

// sarifFile is the artifact location of a finding's file: a URI that is
// only ever a file path, whatever the file is called. A relative path is
// a relative reference from %SRCROOT%, percent-encoded, and "./" before a
// first segment with a colon, so "javascript:alert(1)//x.go" is a file in
// the module and never a URI with a scheme; a path that starts with a
// slash (or two: never a host) is a file: URI.
func sarifFile(file string) sarifArtifactLoc {
	if strings.HasPrefix(file, "/") {
		return sarifArtifactLoc{URI: (&url.URL{Scheme: "file", Path: path.Clean(file)}).String()}
	}
	return sarifArtifactLoc{URI: (&url.URL{Path: file}).String(), URIBaseID: srcRoot}
}

func fingerprint(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:8])
}
