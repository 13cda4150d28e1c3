package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/lockaudit/lockaudit/internal/ruledoc"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

func init() {
	register(&command{
		Name:    "rules",
		Usage:   "rules [-kind code|node] [-format text|json|markdown]",
		Summary: "List the rule catalog: ID, name, severity, kind and title.",
		Doc: `Code rules (LA1xx) are found by vet, audit and preflight in Go source;
node rules (LA2xx) by the probe on servers. A rule is named by its ID
(LA103) or its name (plain-del-release) wherever lockaudit expects one:
explain, -rules, the config file's rules: and //lockaudit:ignore.`,
		Examples: `lockaudit rules
lockaudit rules -kind node
lockaudit rules -format json`,
		Exit: `0  listed
2  usage error`,
		Run: runRules,
	})
	register(&command{
		Name:    "explain",
		Usage:   "explain [-v] RULE...",
		Summary: "Print a rule's documentation: what it finds, why it matters, how to fix it.",
		Doc: `Prints a summary of each named rule in ten lines at most: the rule, why
it matters, how to fix it, the first line of a bad and a good example.
-v prints the whole catalog entry: what it finds, why it matters, how to
fix it, the examples and the definitions it uses. RULE is an ID (LA104)
or a name (extend-without-ttl), in any case.`,
		Examples: `lockaudit explain LA104
lockaudit explain -v LA104                            # the whole entry
lockaudit explain plain-del-release release-unavailable`,
		Exit: `0  printed
2  no rule given, or an unknown rule`,
		Run: runExplain,
	})
}

func runRules(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "rules")
	kind := fs.String("kind", "", "list only the rules of this `KIND`: code (LA1xx, in Go source) or node (LA2xx, on servers)")
	format := fs.String("format", "text", "`format`: text (a table), json (the catalog entries) or markdown (a table linking each rule's page)")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("rules takes no arguments (to read one rule: lockaudit explain %s)", fs.Arg(0))
	}
	var list []rules.Rule
	switch rules.Kind(*kind) {
	case "":
		list = rules.All()
	case rules.Code, rules.Node:
		list = rules.ByKind(rules.Kind(*kind))
	default:
		return usageError("unknown -kind %q (want code or node)", *kind)
	}
	switch *format {
	case "text":
		return rulesTable(e.Stdout, list)
	case "markdown":
		_, err := io.WriteString(e.Stdout, ruledoc.Table(list, rules.Rule.URL))
		return err
	case "json":
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	return usageError("unknown -format %q (want text, json or markdown)", *format)
}

func rulesTable(w io.Writer, list []rules.Rule) error {
	t := render.NewTable(w)
	t.Header("ID", "NAME", "SEVERITY", "KIND", "TITLE")
	for _, r := range list {
		if err := t.Append(r.ID, r.Name, r.Severity.String(), string(r.Kind), r.Title); err != nil {
			return err
		}
	}
	return t.Render()
}

func runExplain(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "explain")
	verbose := fs.Bool("v", false, "print each rule's whole catalog entry, not its summary")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	args = fs.Args()
	if len(args) == 0 {
		return usageError("explain needs a rule ID or name, e.g. lockaudit explain LA104 (lockaudit rules lists them)")
	}
	var docs []string
	for _, id := range args {
		r, ok := rules.Lookup(id)
		if !ok {
			return usageError("unknown rule %q (lockaudit rules lists them)", id)
		}
		if *verbose {
			docs = append(docs, r.Doc())
		} else {
			docs = append(docs, r.Brief())
		}
	}
	_, err := io.WriteString(e.Stdout, strings.Join(docs, "\n"))
	return err
}
