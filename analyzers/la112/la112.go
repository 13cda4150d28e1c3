package la112

import (
	"flag"
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

// Target is the -target flag's value: the server releases the code must run
// on, comma-separated (a fleet mid-upgrade runs several; a command is
// reported when any of them lacks it).
type Target struct {
	vs []rules.Version
	s  string
}

func (t *Target) String() string { return t.s }

// Set parses one release line or a comma-separated list of them; an unknown
// one is an error naming the known lines, and leaves the target unchanged.
func (t *Target) Set(s string) error {
	vs, names, err := rules.ParseTargets(s)
	if err != nil {
		return err
	}
	t.vs, t.s = vs, strings.Join(names, ",")
	return nil
}

// Supports reports whether every target has a feature.
func (t *Target) Supports(f rules.Feature) bool {
	for _, v := range t.vs {
		if !rules.Supports(v, f) {
			return false
		}
	}
	return len(t.vs) > 0
}

var target Target

// Shared returns the one -target setting. Rules whose suggested fixes
// depend on the server (LA101 and LA103 offer DELIFEQ) bind it as their own
// -target flag (BindTarget), so that setting the flag on any of them sets it
// for all, and ask it with Supports; the flag is parsed once.
func Shared() *Target { return &target }

// BindTarget registers the shared setting as the -target flag of such a
// rule; fix says how the target changes the rule's fix.
func BindTarget(fs *flag.FlagSet, fix string) {
	fs.Var(&target, "target", "the server releases the code runs on, as LA112's -target (the same setting): "+fix)
}

func init() {
	if err := target.Set(DefaultTarget); err != nil {
		panic(err)
	}
	Analyzer.Flags.Var(&target, "target", "oldest server release any promotable node runs, or a comma-separated list of the releases in the fleet: valkey-7.2 ... valkey-9.2, redis-6.0 ... redis-8.6 (default "+DefaultTarget+")")
}

// lacking says which targets lack feature, to follow "but ": "the target
// is valkey-8.0", or "valkey-8.1 (one of the targets valkey-8.1, valkey-9.0)
// lacks it"; "" when every target has it.
func lacking(feature rules.Feature) string {
	var miss, all []string
	for _, v := range target.vs {
		all = append(all, v.Line())
		if !rules.Supports(v, feature) {
			miss = append(miss, v.Line())
		}
	}
	switch {
	case len(miss) == 0:
		return ""
	case len(all) == 1:
		return "the target is " + miss[0]
	case len(miss) == 1:
		return miss[0] + " (one of the targets " + strings.Join(all, ", ") + ") lacks it"
	}
	return strings.Join(miss, " and ") + " (of the targets " + strings.Join(all, ", ") + ") lack it"
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
		if miss := lacking(feature); miss != "" {
			msgs = append(msgs, name+" needs "+rules.Requirement(feature)+", but "+miss+
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
