package la112

import (
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports commands the -target server does not have.
var Analyzer = ruleutil.New("LA112", run)

// DefaultTarget is the -target a run uses unless told otherwise.
const DefaultTarget = "valkey-9.0"

// Target is the -target flag's value: the server release the code must run
// on.
type Target struct {
	v rules.Version
	s string
}

func (t *Target) String() string { return t.s }

// Set parses a release line; an unknown one is an error naming the known
// lines.
func (t *Target) Set(s string) error {
	v, err := rules.ParseTarget(s)
	if err != nil {
		return err
	}
	t.v, t.s = v, strings.ToLower(strings.TrimSpace(s))
	return nil
}

// Version returns the parsed target.
func (t *Target) Version() rules.Version { return t.v }

var target Target

func init() {
	if err := target.Set(DefaultTarget); err != nil {
		panic(err)
	}
	Analyzer.Flags.Var(&target, "target", "oldest server release any promotable node runs: valkey-7.2 ... valkey-9.2, redis-6.0 ... redis-8.6 (default "+DefaultTarget+")")
}

func run(pass *analysis.Pass) (any, error) {
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Command {
			continue
		}
		var feature rules.Feature
		var name string
		switch {
		case op.Name == "DELIFEQ":
			feature, name = rules.DELIFEQ, "DELIFEQ"
		case op.Name == "DELEX":
			feature, name = rules.DELEX, "DELEX"
		case op.Name == "SET" && op.Cond == "IFEQ":
			feature, name = rules.SetIFEQ, "SET IFEQ"
		default:
			continue
		}
		var msgs []string
		if !rules.Supports(target.v, feature) {
			msgs = append(msgs, name+" needs "+rules.Requirement(feature)+", but the target is "+target.v.Line()+
				": on an older node it fails (unknown command or syntax error), typically after a failover promotes an old replica; upgrade every node that can become primary first, or raise -target once the fleet is upgraded")
		}
		if op.Name == "DELEX" && op.Cond == "" && op.Complete {
			msgs = append(msgs, "DELEX without a condition is a plain DEL on Redis (it deletes whoever holds the lock) and an error on Valkey (the condition is required): release with DELEX key IFEQ token")
		}
		if len(msgs) > 0 {
			ruleutil.Report(pass, "LA112", op.Pos, "%s", strings.Join(msgs, "; also, "))
		}
	}
	return nil, nil
}
