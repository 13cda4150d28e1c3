package fence

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

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
		for _, c := range analyzertest.MustCalls(t, in.Index, n) {
			var fn *types.Func
			switch a := c.Args[0].(type) {
			case *ast.CallExpr:
				fn, _ = typeutil.Callee(in.TypesInfo, a).(*types.Func)
			default:
				fn, _ = in.ObjOf(a).(*types.Func)
			}
			if fn == nil {
				t.Fatalf("line %d: no func", in.Line(c.Pos()))
			}
			got = append(got, settings.WriterName(fn))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("WriterName:\n got %v\nwant %v", got, want)
	}
}
