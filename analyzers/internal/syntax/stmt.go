package syntax

import (
	"go/ast"

	"golang.org/x/tools/go/types/typeutil"
)

// Terminates reports whether a statement leaves the block for good:
// return, break, continue, goto, or a call to panic, os.Exit or log.Fatal*
// (log.Panic*).
func (x *Index) Terminates(s ast.Stmt) bool {
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
		if fn := typeutil.StaticCallee(x.TypesInfo, call); fn != nil && fn.Pkg() != nil {
			switch fn.Pkg().Path() + "." + fn.Name() {
			case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf":
				return true
			}
		}
	}
	return false
}

// EndsBlock reports whether a block never falls through to the statement
// after it: its last statement terminates.
func (x *Index) EndsBlock(b *ast.BlockStmt) bool {
	return b != nil && len(b.List) > 0 && x.Terminates(b.List[len(b.List)-1])
}
