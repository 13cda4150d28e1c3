package flow

import (
	"go/ast"
	"go/token"
	"sort"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// Region is the stretch of a function that runs while it holds a lock:
// from the acquire to the first release that certainly runs after it, or
// to the end of the function. Order is source order (a loop that releases
// and re-acquires is read top to bottom), which is good enough for
// "between acquire and release" in straight-line lock code.
type Region struct {
	Acquire *resolve.Op
	Start   token.Pos   // the acquire's position
	End     token.Pos   // the release's position, or the end of the function
	Release *resolve.Op // nil when the region runs to the end of the function
}

// Contains reports whether pos lies in the region.
func (r Region) Contains(pos token.Pos) bool { return pos > r.Start && pos < r.End }

// IsAcquireOp reports whether op takes a lock: a SET NX/SETNX that is a
// lock acquire (IsLockAcquire), a Lua script that acquires, or a lock
// library's acquire (redsync Lock, redislock Obtain, valkeylock
// WithContext ...).
func (in *Info) IsAcquireOp(op *resolve.Op) bool {
	switch op.Kind {
	case resolve.Library:
		return op.Step == "acquire"
	case resolve.Command:
		return in.IsLockAcquire(op) || ScriptStep(op)&lua.Acquire != 0
	}
	return false
}

// isReleaseOp reports whether op releases a lock: DELIFEQ, DELEX, a Lua
// compare-and-delete, a plain DEL/UNLINK/GETDEL, or a library release.
func isReleaseOp(op *resolve.Op) bool {
	if op.Kind == resolve.Library {
		return op.Step == "release"
	}
	return IsRelease(op) || IsPlainDel(op) || (op.Kind == resolve.Command && op.Name == "DELEX")
}

// LockFuncs returns the functions that acquire a lock (an acquire op in
// their body, TxPipelined callbacks and other literals included), each
// once, in source order (so rules report in a stable order).
func (in *Info) LockFuncs() []*ast.FuncDecl {
	var out []*ast.FuncDecl
	seen := map[*ast.FuncDecl]bool{}
	for _, op := range in.Ops {
		if op.Func != nil && !seen[op.Func] && in.IsAcquireOp(op) {
			seen[op.Func] = true
			out = append(out, op.Func)
		}
	}
	return out
}

// Regions returns the lock-holding regions of a function. A release ends a
// region when it releases the acquired key (same shape, or a shape that
// cannot be compared) and certainly runs in line: a deferred release, one in
// a goroutine, and one on an early-exit path (a block that ends in return,
// break, continue or panic) do not end it, so "defer unlock()" covers the
// rest of the function.
func (in *Info) Regions(fd *ast.FuncDecl) []Region {
	var acquires, releases []*resolve.Op
	for _, op := range in.Ops {
		if op.Func != fd {
			continue
		}
		if in.IsAcquireOp(op) {
			acquires = append(acquires, op)
		} else if isReleaseOp(op) && !in.deferredOrEarlyExit(op, fd) {
			releases = append(releases, op)
		}
	}
	sort.Slice(releases, func(i, j int) bool { return releases[i].Pos < releases[j].Pos })
	var out []Region
	for _, a := range acquires {
		r := Region{Acquire: a, Start: a.Pos, End: fd.End()}
		for _, rel := range releases {
			if rel.Pos > a.Pos && in.releases(a, rel) {
				r.End, r.Release = rel.Pos, rel
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// releases reports whether rel may release what a acquired.
func (in *Info) releases(a, rel *resolve.Op) bool {
	if a.Kind == resolve.Library || rel.Kind == resolve.Library {
		return a.Kind == rel.Kind && a.Client == rel.Client
	}
	if len(a.Keys) == 0 || len(rel.Keys) == 0 {
		return true
	}
	ka, kr := in.ShapeOf(a.Key()).Key(), in.ShapeOf(rel.Key()).Key()
	return ka == "" || kr == "" || ka == kr
}

// deferredOrEarlyExit reports whether an op runs deferred, in a goroutine,
// or on a path that leaves the function (or loop) right after it.
func (in *Info) deferredOrEarlyExit(op *resolve.Op, fd *ast.FuncDecl) bool {
	for n := in.Parent(op.Call); n != nil && n != ast.Node(fd); n = in.Parent(n) {
		switch n := n.(type) {
		case *ast.DeferStmt, *ast.GoStmt:
			return true
		case *ast.BlockStmt:
			if n == fd.Body {
				return false
			}
			if _, isLit := in.Parent(n).(*ast.FuncLit); isLit {
				continue // a callback's body (TxPipelined): look further out
			}
			if len(n.List) > 0 && terminates(in, n.List[len(n.List)-1]) {
				return true
			}
		}
	}
	return false
}

// terminates reports whether a statement leaves the block for good:
// return, break, continue, goto, or a call to panic, os.Exit or log.Fatal*.
func terminates(in *Info, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" {
			return true
		}
		if fn := typeutil.StaticCallee(in.TypesInfo, call); fn != nil && fn.Pkg() != nil {
			switch fn.Pkg().Path() + "." + fn.Name() {
			case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf":
				return true
			}
		}
	}
	return false
}

// Holding returns the region of rs (a function's Regions, computed once
// for all the positions asked about) that contains pos.
func Holding(rs []Region, pos token.Pos) (Region, bool) {
	for _, r := range rs {
		if r.Contains(pos) {
			return r, true
		}
	}
	return Region{}, false
}
