package schemagen

import (
	"go/ast"
	"go/constant"
	"go/doc"
	"go/token"
	"reflect"
	"strconv"
)

// Value is the doc comment of the constant of named type t whose value is
// v (a string, bool, int64, uint64 or float64): an enum value's
// description. The constants are found in the source and their values
// worked out from literals, iota, conversions and other constants of the
// package; one whose value cannot be worked out has none.
func (d *Docs) Value(t reflect.Type, v any) string {
	p := d.pkg(t.PkgPath())
	if p == nil {
		return ""
	}
	want := constOf(v)
	if want == nil {
		return ""
	}
	consts := constValues(p)
	for _, c := range consts {
		if c.typ != baseName(t.Name()) || c.val == nil || c.val.Kind() == constant.Unknown {
			continue
		}
		if equal(c.val, want) {
			return describe(c.name, c.doc)
		}
	}
	return ""
}

type constDecl struct {
	name, typ, doc string
	val            constant.Value
}

// constValues works out the package's constants, in order.
func constValues(p *doc.Package) []constDecl {
	var decls []*doc.Value
	decls = append(decls, p.Consts...)
	for _, t := range p.Types {
		decls = append(decls, t.Consts...)
	}
	known := map[string]constant.Value{}
	var out []constDecl
	for _, dv := range decls {
		var typ ast.Expr
		var exprs []ast.Expr
		for iota, spec := range dv.Decl.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				continue
			}
			if vs.Type != nil || len(vs.Values) > 0 { // otherwise the previous ones repeat
				typ, exprs = vs.Type, vs.Values
			}
			text := ""
			switch {
			case vs.Doc != nil:
				text = vs.Doc.Text()
			case vs.Comment != nil:
				text = vs.Comment.Text()
			case len(dv.Decl.Specs) == 1:
				text = dv.Doc
			}
			for i, name := range vs.Names {
				var val constant.Value
				if i < len(exprs) {
					val = eval(exprs[i], int64(iota), known)
				}
				if val != nil {
					known[name.Name] = val
				}
				out = append(out, constDecl{name: name.Name, typ: typeName(typ, exprs, i), doc: text, val: val})
			}
		}
	}
	return out
}

// typeName is the named type of a constant: its declared type, or the
// conversion its value is written as (Colour("red")).
func typeName(typ ast.Expr, exprs []ast.Expr, i int) string {
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	if i < len(exprs) {
		if call, ok := exprs[i].(*ast.CallExpr); ok && len(call.Args) == 1 {
			if id, ok := call.Fun.(*ast.Ident); ok {
				return id.Name
			}
		}
	}
	return ""
}

// eval works out a constant expression; nil when it cannot.
func eval(e ast.Expr, iota int64, known map[string]constant.Value) constant.Value {
	switch e := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		if v.Kind() == constant.Unknown {
			return nil
		}
		return v
	case *ast.Ident:
		switch e.Name {
		case "iota":
			return constant.MakeInt64(iota)
		case "true", "false":
			return constant.MakeBool(e.Name == "true")
		}
		return known[e.Name]
	case *ast.ParenExpr:
		return eval(e.X, iota, known)
	case *ast.UnaryExpr:
		x := eval(e.X, iota, known)
		if x == nil {
			return nil
		}
		return constant.UnaryOp(e.Op, x, 0)
	case *ast.BinaryExpr:
		x, y := eval(e.X, iota, known), eval(e.Y, iota, known)
		if x == nil || y == nil {
			return nil
		}
		switch e.Op {
		case token.SHL, token.SHR:
			n, ok := constant.Uint64Val(y)
			if !ok {
				return nil
			}
			return constant.Shift(x, e.Op, uint(n))
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return constant.MakeBool(constant.Compare(x, e.Op, y))
		}
		if e.Op == token.QUO && x.Kind() == constant.Int && y.Kind() == constant.Int {
			return constant.BinaryOp(x, token.QUO_ASSIGN, y) // integer division
		}
		return constant.BinaryOp(x, e.Op, y)
	case *ast.CallExpr: // a conversion: Colour("red"), Size(1)
		if len(e.Args) == 1 {
			return eval(e.Args[0], iota, known)
		}
	}
	return nil
}

// constOf is v, an enum value as host.EnumValue holds it, as a constant.
func constOf(v any) constant.Value {
	switch v := v.(type) {
	case string:
		return constant.MakeString(v)
	case bool:
		return constant.MakeBool(v)
	case int64:
		return constant.MakeInt64(v)
	case uint64:
		return constant.MakeUint64(v)
	case float64:
		return constant.MakeFromLiteral(strconv.FormatFloat(v, 'g', -1, 64), token.FLOAT, 0)
	}
	return nil
}

func equal(a, b constant.Value) bool {
	switch {
	case a.Kind() == constant.String || b.Kind() == constant.String,
		a.Kind() == constant.Bool || b.Kind() == constant.Bool:
		return a.Kind() == b.Kind() && constant.Compare(a, token.EQL, b)
	}
	return constant.Compare(constant.ToFloat(a), token.EQL, constant.ToFloat(b))
}
