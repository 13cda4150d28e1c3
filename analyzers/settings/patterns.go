package settings

import (
	"fmt"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/lockaudit/lockaudit/rules/config"
)

// Default patterns (Go regular expressions, matched case-insensitively):
// the analyzers' built-in settings, which config init writes into a new
// .lockaudit.yaml and config check prints.
var (
	// "lock" or "locks" as a word part: lock:job, job:lock, job-lock,
	// job_lock, locks/job. Not block, clock, or mylock (one word). One
	// source with lockaudit scan: rules/config.
	DefaultLockKeys = config.DefaultLockKeys
	// "fence", "fencing" or "token" as a word part: fence:{job},
	// job:fencing_token. Not tokens:user (a rate-limit bucket).
	DefaultFenceKeys = []string{`(^|[^a-z0-9])(fence|fencing|token)([^a-z0-9]|$)`}
	// A column whose name contains fence or token.
	DefaultFenceColumns = []string{`fence`, `token`}
)

// DefaultWriters are the protected-resource writers every run knows, in the
// form WriterName prints. Any interface method named Exec or ExecContext
// that returns (database/sql.Result, error) or (pgconn.CommandTag, error)
// is a writer too (sqlc's DBTX, a repository's own Execer).
var DefaultWriters = []string{
	"(*database/sql.DB).Exec", "(*database/sql.DB).ExecContext",
	"(*database/sql.Tx).Exec", "(*database/sql.Tx).ExecContext",
	"(*database/sql.Conn).ExecContext",
	"(*database/sql.Stmt).Exec", "(*database/sql.Stmt).ExecContext",
	"(*github.com/jackc/pgx/v5.Conn).Exec",
	"(github.com/jackc/pgx/v5.Tx).Exec",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Exec",
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).Exec",
	"(*github.com/jackc/pgx/v5/pgxpool.Tx).Exec",
}

// Patterns is a list of regular expressions, a flag.Value. The first Set
// replaces the defaults; later Sets add to the list (repeat the flag to give
// several). A pattern may contain commas, so a flag value is one pattern.
type Patterns struct {
	name     string
	defaults []string
	src      []string
	res      []*regexp.Regexp
	custom   bool
}

func newPatterns(name string, defaults ...string) *Patterns {
	p := &Patterns{name: name, defaults: defaults}
	if err := p.SetList(defaults); err != nil {
		panic(err)
	}
	p.custom = false
	return p
}

// String returns the patterns joined by commas.
func (p *Patterns) String() string {
	if p == nil {
		return ""
	}
	return strings.Join(p.src, ",")
}

// Set adds one pattern; the first Set replaces the defaults.
func (p *Patterns) Set(s string) error {
	re, err := compile(s)
	if err != nil {
		return fmt.Errorf("bad %s pattern %q: %v", p.name, s, err)
	}
	if !p.custom {
		p.src, p.res, p.custom = nil, nil, true
	}
	p.src = append(p.src, s)
	p.res = append(p.res, re)
	return nil
}

// SetList replaces the patterns (the config file's list). An empty list
// restores the defaults.
func (p *Patterns) SetList(list []string) error {
	if len(list) == 0 {
		list = p.defaults
	}
	res := make([]*regexp.Regexp, len(list))
	for i, s := range list {
		re, err := compile(s)
		if err != nil {
			return fmt.Errorf("bad %s pattern %q: %v", p.name, s, err)
		}
		res[i] = re
	}
	p.src, p.res, p.custom = slices.Clone(list), res, true
	return nil
}

// Match reports whether any pattern matches s, and which.
func (p *Patterns) Match(s string) (string, bool) {
	for i, re := range p.res {
		if re.MatchString(s) {
			return p.src[i], true
		}
	}
	return "", false
}

func compile(s string) (*regexp.Regexp, error) {
	if s == "" {
		return nil, fmt.Errorf("empty pattern")
	}
	return regexp.Compile("(?i)" + s)
}

// WriterList is the list of writers added to DefaultWriters, a flag.Value:
// a comma-separated list of fully qualified names, (*pkg/path.Type).Method,
// (pkg/path.Type).Method or pkg/path.Func. Each Set adds to the list.
type WriterList struct {
	names []string
}

// String returns the added writers joined by commas.
func (w *WriterList) String() string {
	if w == nil {
		return ""
	}
	return strings.Join(w.names, ",")
}

// Set adds the comma-separated writers in s.
func (w *WriterList) Set(s string) error {
	return w.Add(strings.Split(s, ",")...)
}

// Add adds writers by fully qualified name.
func (w *WriterList) Add(names ...string) error {
	var add []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !writerRE().MatchString(n) {
			return fmt.Errorf("bad writer %q: want (*pkg/path.Type).Method, (pkg/path.Type).Method or pkg/path.Func", n)
		}
		add = append(add, n)
	}
	w.names = append(w.names, add...)
	return nil
}

// Has reports whether name is a default or an added writer.
func (w *WriterList) Has(name string) bool {
	return slices.Contains(DefaultWriters, name) || slices.Contains(w.names, name)
}

var writerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\(\*?[\w./-]+\.\w+\)\.\w+|[\w./-]+\.\w+)$`) })

// WriterName is the fully qualified name of fn in the writer-list form:
// (*database/sql.DB).ExecContext, (github.com/jackc/pgx/v5.Tx).Exec,
// example.com/repo.SaveInvoice. Generic methods are named by their origin.
func WriterName(fn *types.Func) string {
	fn = fn.Origin()
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		if fn.Pkg() == nil {
			return fn.Name()
		}
		return fn.Pkg().Path() + "." + fn.Name()
	}
	t := sig.Recv().Type()
	ptr := ""
	if p, ok := t.(*types.Pointer); ok {
		ptr, t = "*", p.Elem()
	}
	named, _ := types.Unalias(t).(*types.Named)
	if named == nil || named.Obj().Pkg() == nil {
		return fn.FullName()
	}
	return fmt.Sprintf("(%s%s.%s).%s", ptr, named.Obj().Pkg().Path(), named.Obj().Name(), fn.Name())
}
