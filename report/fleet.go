package report

import (
	"github.com/lockaudit/lockaudit/rules"
)

// Scan is what `lockaudit scan` read: each primary's data, from the node it
// was read on. A shard not read to the end makes the run's answer unknown
// (ExitCode 4): a lock key there may be permanent.
type Scan struct {
	Patterns []string    `json:"patterns"`            // lock-key patterns (regular expressions)
	MaxLease string      `json:"max_lease,omitempty"` // LA212 threshold, e.g. "10m0s"; "" not checked
	Rate     int         `json:"rate"`                // keys per second per node; 0 no limit
	Count    int         `json:"count"`               // SCAN COUNT
	Shards   []ScanShard `json:"shards"`
}

// ScanShard is one primary's data: the totals over its databases, and
// each database.
type ScanShard struct {
	Primary  string `json:"primary"`
	ReadFrom string `json:"read_from,omitempty"` // the node SCANned: a replica when one was usable
	Role     string `json:"role,omitempty"`      // ReadFrom's role
	Keys     int64  `json:"keys"`                // keys SCAN returned
	LockKeys int64  `json:"lock_keys"`           // of which matched a lock-key pattern
	Findings int    `json:"findings"`            // LA211/LA212 findings (reported or over the limit)
	Complete bool   `json:"complete"`            // every database INFO keyspace lists was read to cursor 0
	Note     string `json:"note,omitempty"`      // why not complete, or why not the replica
	// Databases are the databases read (INFO keyspace lists those that
	// hold keys), in order.
	Databases []ScanDB `json:"databases,omitempty"`
}

// ScanDB is one database of a shard.
type ScanDB struct {
	DB       int    `json:"db"`
	Keys     int64  `json:"keys"`
	LockKeys int64  `json:"lock_keys"`
	Findings int    `json:"findings"`
	Complete bool   `json:"complete"`
	Note     string `json:"note,omitempty"`
}

// ConformNode is `lockaudit conform`'s table for one node: on a primary the
// steps it ran, on a replica what it read after each write (and what it
// lacks should it be promoted).
type ConformNode struct {
	Node    string        `json:"node"`
	Role    string        `json:"role"`
	Server  string        `json:"server,omitempty"` // "Valkey 9.1.2"
	Primary string        `json:"primary,omitempty"`
	Steps   []ConformStep `json:"steps"`
	Error   string        `json:"error,omitempty"` // the node could not be (fully) tested
}

// ConformStep is one row: what was sent, what the documentation says it
// answers, and what the node answered. Its typed fields say what the row
// is (Kind), which primary step a replica's row follows (After), which
// command relied on the step exercises (Uses), and, where the server
// lacks it, what works there instead (Advice, from the capability table).
type ConformStep struct {
	Step     string `json:"step"`
	Command  string `json:"command"`
	Expected string `json:"expected"`
	Got      string `json:"got"`
	Status   string `json:"status"` // pass, fail, missing, skipped, error

	Kind   StepKind      `json:"kind,omitempty"`
	After  string        `json:"after,omitempty"`
	Uses   rules.Command `json:"uses,omitempty"`
	Advice string        `json:"advice,omitempty"`
}

// StepKind says what a conform row is. Its zero value is a row of a run
// written before kinds (read as a step run).
type StepKind uint8

const (
	StepRun        StepKind = iota + 1 // a step of the lock pattern, run on a primary
	StepSetup                          // the scratch keys, a fresh lock a step needs, the cleanup
	StepReplicated                     // what a replica holds after a primary step
	StepIfPromoted                     // what a replica lacks should it be promoted (read by the probe)
)

var stepKindEnum = enum[StepKind]{"step kind", []string{StepRun: "run", StepSetup: "setup", StepReplicated: "replicated", StepIfPromoted: "if_promoted"}}

// Valid reports whether k is one of the kinds.
func (k StepKind) Valid() bool { return stepKindEnum.valid(k) }

func (k StepKind) String() string                { return stepKindEnum.str(k) }
func (k StepKind) MarshalText() ([]byte, error)  { return stepKindEnum.marshal(k) }
func (k *StepKind) UnmarshalText(b []byte) error { return stepKindEnum.unmarshal(b, k) }

// Conformance step statuses. Fail and missing are findings (LA213); error
// (no answer) leaves the node unknown.
const (
	StepPass    = "pass"
	StepFail    = "fail"
	StepMissing = "missing"
	StepSkipped = "skipped"
	StepError   = "error"
)

// incomplete reports whether a scan or conformance test did not read all
// it had to, which makes the answer unknown.
func (r *Run) incomplete() bool {
	if r.Scan != nil {
		for _, s := range r.Scan.Shards {
			if !s.Complete {
				return true
			}
		}
	}
	for _, n := range r.Conform {
		if n.Error != "" {
			return true
		}
		for _, s := range n.Steps {
			if s.Status == StepError {
				return true
			}
		}
	}
	return false
}
