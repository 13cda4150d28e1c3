package driver

import (
	"go/ast"
	"go/token"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// enclosingFunc names the function declaration around pos, as a finding's
// Func: "Reserve", "Locker.Release" (a method, by its receiver's type
// name); "" at package level or outside the files. A function literal
// counts as part of the declaration it is written in.
func enclosingFunc(files []*ast.File, pos token.Pos) string {
	for _, f := range files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos <= fd.End() {
				return funcDeclName(fd)
			}
		}
		return ""
	}
	return ""
}

func funcDeclName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	if t := syntax.RecvTypeName(fd.Recv.List[0].Type); t != "" {
		return t + "." + fd.Name.Name
	}
	return fd.Name.Name
}
