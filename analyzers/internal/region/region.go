// Package region knows where a function holds a lock: from each acquire to
// the first release that certainly runs after it, or to the end of the
// function (Regions, Holding), and which functions acquire at all
// (LockFuncs).
package region

import (
	"go/ast"
	"go/token"
	"sort"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
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

// isRelease reports whether op may end a region: an owner-checked release
// (DELIFEQ, DELEX with a condition, a Lua compare-and-delete, a library
// release) or a delete without a check (DEL, UNLINK, GETDEL, a DELEX
// without a condition).
func isRelease(op *resolve.Op) bool {
	return op.Steps()&(resolve.StepRelease|resolve.StepDelete) != 0
}

// LockFuncs returns the functions that acquire a lock (an acquire op in
// their body, TxPipelined callbacks and other literals included), each
// once, in source order (so rules report in a stable order).
func LockFuncs(in *keys.Info) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	seen := map[*ast.FuncDecl]bool{}
	for _, op := range in.Ops {
		if op.Func != nil && !seen[op.Func] && in.IsLockAcquire(op) {
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
func Regions(in *keys.Info, fd *ast.FuncDecl) []Region {
	var acquires, releases []*resolve.Op
	for _, op := range in.Ops {
		if op.Func != fd {
			continue
		}
		if in.IsLockAcquire(op) {
			acquires = append(acquires, op)
		} else if isRelease(op) && !deferredOrEarlyExit(in, op, fd) {
			releases = append(releases, op)
		}
	}
	sort.Slice(releases, func(i, j int) bool { return releases[i].Pos < releases[j].Pos })
	var out []Region
	for _, a := range acquires {
		r := Region{Acquire: a, Start: a.Pos, End: fd.End()}
		for _, rel := range releases {
			if rel.Pos > a.Pos && mayRelease(in, a, rel) {
				r.End, r.Release = rel.Pos, rel
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// mayRelease reports whether rel may release what a acquired.
func mayRelease(in *keys.Info, a, rel *resolve.Op) bool {
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
func deferredOrEarlyExit(in *keys.Info, op *resolve.Op, fd *ast.FuncDecl) bool {
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
			if in.EndsBlock(n) {
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
