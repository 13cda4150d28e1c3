package flow

import (
	"flag"
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/types/typeutil"
)

func TestPatternsFlag(t *testing.T) {
	defer LockKeys.Reset()
	fs := flag.NewFlagSet("LA103", flag.ContinueOnError)
	Bind(fs, "lock-key-pattern")
	fs2 := flag.NewFlagSet("LA114", flag.ContinueOnError)
	Bind(fs2, "lock-key-pattern")
	if err := fs.Parse([]string{"-lock-key-pattern", `^mutex:`, "-lock-key-pattern", `(^|:)guard{1,2}$`}); err != nil {
		t.Fatal(err)
	}
	// One shared value: what LA103's flag set, LA114's flag shows.
	if got := fs2.Lookup("lock-key-pattern").Value.String(); got != `^mutex:,(^|:)guard{1,2}$` {
		t.Errorf("LA114 sees %q", got)
	}
	for s, want := range map[string]bool{"mutex:job": true, "MUTEX:job": true, "a:guardd": true, "lock:job": false} {
		if _, got := LockKeys.Match(s); got != want {
			t.Errorf("after -lock-key-pattern: Match(%q) = %v, want %v", s, got, want)
		}
	}
	if err := fs.Parse([]string{"-lock-key-pattern", `(lock`}); err == nil || !strings.Contains(err.Error(), `bad lock-key pattern "(lock"`) {
		t.Errorf("bad pattern: err = %v", err)
	}
	LockKeys.Reset()
	if _, ok := LockKeys.Match("lock:job"); !ok {
		t.Error("Reset did not restore the default")
	}
	if err := LockKeys.SetList([]string{"^l:"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := LockKeys.Match("lock:job"); ok {
		t.Error("SetList did not replace the default")
	}
	if err := LockKeys.SetList(nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := LockKeys.Match("lock:job"); !ok {
		t.Error("SetList(nil) did not restore the default")
	}
}

func TestWritersFlag(t *testing.T) {
	defer Writers.Reset()
	fs := flag.NewFlagSet("LA110", flag.ContinueOnError)
	Bind(fs, "writers")
	if err := fs.Parse([]string{"-writers", "example.com/repo.SaveInvoice, (*example.com/repo.Store).Put"}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"example.com/repo.SaveInvoice", "(*example.com/repo.Store).Put", "(*database/sql.DB).ExecContext"} {
		if !Writers.Has(n) {
			t.Errorf("Has(%q) = false", n)
		}
	}
	if err := fs.Parse([]string{"-writers", "(*sql.DB.Exec"}); err == nil || !strings.Contains(err.Error(), `bad writer "(*sql.DB.Exec"`) {
		t.Errorf("bad writer: err = %v", err)
	}
}

func TestWriterName(t *testing.T) {
	in := load(t, `package p

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Store struct{}

func (s *Store) Save() {}
func Save()            {}

type G[T any] struct{}

func (g *G[T]) Exec() {}

func f(db *sql.DB, tx *sql.Tx, c pgx.Tx, pc *pgx.Conn, pool *pgxpool.Pool, s *Store, g *G[int]) {
	ctx := context.Background()
	name(db.ExecContext(ctx, ""))
	name(tx.Exec(""))
	name(c.Exec(ctx, ""))
	name(pc.Exec(ctx, ""))
	name(pool.Exec(ctx, ""))
	name0(s.Save)
	name0(Save)
	name0(g.Exec)
}

func name(args ...any) {}
func name0(f func())   {}
`)
	want := []string{
		"(*database/sql.DB).ExecContext", "(*database/sql.Tx).Exec", "(github.com/jackc/pgx/v5.Tx).Exec",
		"(*github.com/jackc/pgx/v5.Conn).Exec", "(*github.com/jackc/pgx/v5/pgxpool.Pool).Exec",
		"(*p.Store).Save", "p.Save", "(*p.G).Exec",
	}
	var got []string
	for _, n := range []string{"name", "name0"} {
		for _, c := range mustCalls(t, in, n) {
			var fn *types.Func
			switch a := c.Args[0].(type) {
			case *ast.CallExpr:
				fn, _ = typeutil.Callee(in.TypesInfo, a).(*types.Func)
			default:
				fn, _ = in.objOf(a).(*types.Func)
			}
			if fn == nil {
				t.Fatalf("line %d: no func", in.line(c.Pos()))
			}
			got = append(got, WriterName(fn))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("WriterName:\n got %v\nwant %v", got, want)
	}
}
