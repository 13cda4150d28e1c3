package fence

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// carries(e, bool) states whether e derives from a fence in its function;
// fence(incr-call, "why") states Fence(); draws(bool) whether the
// function draws a fence.
const fenceSrc = `package p

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

type lease struct {
	fence int64
	name  string
}

type DBTX interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func viaResult(db *sql.DB) {
	setnx("lock:job", "t")
	n, _ := incr("fence:job").Result()
	f := strconv.FormatInt(n+1, 10)
	carries(n, true)
	carries(f, true)
	carries("x", false)
	db.Exec("UPDATE t SET fence = $1", f)
	draws(true)
}

func viaTx(ctx context.Context, db *sql.DB) {
	var c *Cmd
	cmds, err := multi(func() {
		setnx("lock:{job}", "t")
		c = incr("counter:{job}")
	})
	carries(c.Val(), true)
	carries(cmds[1], true)
	carries(err, false)
	db.ExecContext(ctx, "UPDATE t SET n = 1")
}

func viaRedigo() {
	setnx("lock:job", "t")
	reply, _ := rgIncr("fence:job")
	var got int64
	scan(reply, &got)
	carries(got, true)
	draws(true)
}

func viaRadix() {
	var n int64
	rxDo(rxCmd(&n, "INCR", "fence:job"))
	carries(n, true)
}

func viaValkey(p *pgxpool.Pool) {
	res := vkFenceMulti("fence:job")
	v, _ := res[2].AsInt64()
	carries(v, true)
	carries(res, true)
}

func store(l *lease) {
	setnx("lock:job", "t")
	l.fence, _ = incr("fence:job").Result()
}

func useField(tx pgx.Tx, l *lease) {
	libLock()
	tx.Exec(context.Background(), "UPDATE t SET f = $1", l.fence)
	carries(l.fence, true)
	carries(l.name, false)
	draws(true)
}

func drawFence() (int64, error) {
	setnx("lock:job", "t")
	return incr("fence:job").Result()
}

func drawNamed() (f int64, err error) {
	setnx("lock:job", "t")
	f, err = incr("fence:job").Result()
	return
}

func useNamed(db DBTX) {
	f, _ := drawNamed()
	carries(f, true)
}

func useHelper(db DBTX) {
	f, _ := drawFence()
	carries(f, true)
	db.ExecContext(context.Background(), "UPDATE t SET f = $1", f)
	draws(true)
}

func counterToWrite(db *sql.DB) {
	setnx("lock:job", "t")
	n := incr("attempts:job").Val()
	db.Exec("UPDATE t SET attempt = $1", n)
	draws(true)
}

func counterNowhere(db *sql.DB) {
	setnx("lock:job", "t")
	n := incr("attempts:job").Val()
	db.Exec("UPDATE t SET x = 1")
	log(n)
	draws(false)
}

func noFence(db *sql.DB) {
	libLock()
	db.Exec("UPDATE t SET x = 1")
	draws(false)
}

func scan(r any, dst *int64)   {}
func log(v any)                {}
func carries(e any, want bool) {}
func draws(want bool)          {}
`

func TestFenceTaint(t *testing.T) {
	in := load(t, fenceSrc)
	for _, c := range analyzertest.MustCalls(t, in.Index, "carries") {
		fd := in.FuncOf(c)
		want := types.ExprString(c.Args[1]) == "true"
		if got := in.Taint(fd).Carries(c.Args[0]); got != want {
			t.Errorf("line %d (%s): Carries(%s) = %v, want %v", in.Line(c.Pos()), fd.Name.Name, types.ExprString(c.Args[0]), got, want)
		}
	}
	for _, c := range analyzertest.MustCalls(t, in.Index, "draws") {
		fd := in.FuncOf(c)
		want := types.ExprString(c.Args[0]) == "true"
		if got := in.Taint(fd).Draws(); got != want {
			t.Errorf("%s: Draws() = %v, want %v", fd.Name.Name, got, want)
		}
	}
}

func TestFence(t *testing.T) {
	in := load(t, fenceSrc)
	want := map[string]FenceWhy{
		"viaResult": ByKey, "viaTx": ByMulti, "viaRedigo": ByKey, "viaRadix": ByKey,
		"store": ByKey, "drawFence": ByKey, "drawNamed": ByKey, "viaValkey": ByKey, "counterToWrite": ByWrite, "counterNowhere": NotFence,
	}
	n := 0
	for _, op := range in.Ops {
		if !keys.IsIncr(op) {
			continue
		}
		w, ok := want[op.Func.Name.Name]
		if !ok {
			t.Errorf("%s: unexpected INCR", op.Func.Name.Name)
			continue
		}
		n++
		if got := in.Fence(op); got != w {
			t.Errorf("%s: Fence = %d, want %d", op.Func.Name.Name, got, w)
		}
	}
	if n != len(want) {
		t.Errorf("checked %d INCRs, want %d", n, len(want))
	}
}

func TestWriters(t *testing.T) {
	in := load(t, fenceSrc)
	got := map[string][]string{}
	for _, f := range in.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			for _, c := range in.WriterCalls(fd) {
				name, _ := in.IsWriter(c)
				got[fd.Name.Name] = append(got[fd.Name.Name], name)
			}
		}
	}
	want := map[string]string{
		"viaResult":      "(*database/sql.DB).Exec",
		"viaTx":          "(*database/sql.DB).ExecContext",
		"useField":       "(github.com/jackc/pgx/v5.Tx).Exec",
		"useHelper":      "(p.DBTX).ExecContext",
		"counterToWrite": "(*database/sql.DB).Exec",
		"counterNowhere": "(*database/sql.DB).Exec",
		"noFence":        "(*database/sql.DB).Exec",
	}
	for fn, w := range want {
		if g := strings.Join(got[fn], ","); g != w {
			t.Errorf("%s: writers %q, want %q", fn, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("writers in %d functions, want %d: %v", len(got), len(want), got)
	}
}

func TestConfiguredWriter(t *testing.T) {
	in := load(t, `package p
func SaveInvoice(id string, fence int64) error { return nil }
func f() { SaveInvoice("x", 1) }
`)
	c := analyzertest.Calls(in.Index, "SaveInvoice")[0]
	if _, ok := in.IsWriter(c); ok {
		t.Fatal("SaveInvoice is a writer before it is configured")
	}
	if err := in.Settings.Set(settings.OptWriters, "p.SaveInvoice"); err != nil {
		t.Fatal(err)
	}
	if name, ok := in.IsWriter(c); !ok || name != "p.SaveInvoice" {
		t.Errorf("IsWriter = %q, %v after configuring it", name, ok)
	}
}

// load type-checks a snippet (analyzertest.Load) and returns its fence facts.
func load(t *testing.T, src string) *Info {
	sn := analyzertest.Load(t, src)
	return New(keys.New(sn.Index, sn.Ops, sn.Settings))
}
