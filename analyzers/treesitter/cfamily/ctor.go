package cfamily

import "github.com/guardlint/guardlint/analyzers/treesitter/syntax"

// The most vexing parse: in a function body, `std::shared_lock
// l(map_mutex());` and `Foo a(make<int>());` declare variables whose
// constructors are passed the results of calls, but the grammar, which
// cannot tell types from values, reads them as declarations of functions
// l and a taking parameters of types map_mutex() and make<int>(). Local
// function declarations are rare in real code and guard declarations are
// everywhere, so the front end reads such a declaration the way the
// compiler does when the "parameters" are not types: its parameter list
// becomes the argument list of an initialisation, and each parameter the
// expression it spells, with calls where the grammar saw abstract
// function declarators. Calls in constructor arguments then count for
// call and order, and guards find their mutexes there.
//
// The tree is rewritten in place, once per body: only kinds, fields and
// parents change, and every leaf stays where it was, so tokens and
// positions are those of the source. A parameter that cannot be an
// expression (`int`, `const T&`, a named parameter) leaves the whole
// declaration as the grammar read it.

// constructorArgs rewrites every declaration of body that the grammar
// read as a local function declaration into a variable initialised with
// arguments, where each of its parameters reads as an expression.
func constructorArgs(body *syntax.Node) {
	syntax.Walk(body, func(n *syntax.Node) bool {
		if n.Kind == "declaration" {
			for _, d := range n.ChildrenOf("declarator") {
				if d.Kind == "function_declarator" {
					asInitialisation(d)
				}
			}
		}
		return true
	})
}

// asInitialisation turns a function_declarator `l(p, q)` into an
// init_declarator whose value is the argument list `(p, q)`, when every
// parameter spells an expression.
func asInitialisation(d *syntax.Node) {
	params := d.Child("parameters")
	if params == nil || params.Kind != "parameter_list" || !argumentsOf(params, false) {
		return
	}
	argumentsOf(params, true)
	d.Kind = "init_declarator"
	params.Field = "value"
}

// argumentsOf reports whether every parameter of a parameter list spells
// an expression; with apply, it rewrites them into one and the list into
// an argument_list.
func argumentsOf(params *syntax.Node, apply bool) bool {
	for i, p := range params.Children {
		if !p.Named || syntax.IsComment(p) {
			continue
		}
		if p.Kind != "parameter_declaration" {
			return false
		}
		e := parameterExpr(p, apply)
		if e == nil {
			return false
		}
		if apply {
			e.Field, e.Parent = "", params
			params.Children[i] = e
		}
	}
	if apply {
		params.Kind = "argument_list"
	}
	return true
}

// parameterExpr returns the expression a parameter declaration spells:
// its type read as a name, or a call of it when its declarator is an
// abstract function declarator (`make<int>()`, `mtx_for(k)`); nil when
// it is a real parameter.
func parameterExpr(p *syntax.Node, apply bool) *syntax.Node {
	var typ, decl *syntax.Node
	for _, c := range p.Children {
		switch {
		case !c.Named || syntax.IsComment(c):
		case c.Field == "type":
			typ = c
		case c.Field == "declarator":
			decl = c
		default:
			return nil // a qualifier or attribute: `const T&` is a parameter
		}
	}
	if typ == nil || !typeAsName(typ, false) {
		return nil
	}
	switch {
	case decl == nil:
		typeAsName(typ, apply)
		return typ
	case decl.Kind == "abstract_function_declarator":
		args := decl.Child("parameters")
		if args == nil || !argumentsOf(args, false) || len(decl.NamedChildren()) != 1 {
			return nil
		}
		if apply {
			typeAsName(typ, true)
			argumentsOf(args, true)
			// The parameter becomes the call: its callee is the type, its
			// arguments the declarator's parameter list.
			p.Kind = "call_expression"
			typ.Field = "function"
			args.Field, args.Parent = "arguments", p
			p.Children = replace(p.Children, decl, args)
		}
		return p
	}
	return nil
}

// typeAsName reports whether a type spells a name an expression can use:
// an identifier, qualified or not, with template arguments or not; with
// apply, it rewrites the type's kinds to the expression's.
func typeAsName(t *syntax.Node, apply bool) bool {
	switch t.Kind {
	case "type_identifier":
		if apply {
			t.Kind = "identifier"
		}
		return true
	case "qualified_identifier":
		name := t.Child("name")
		return name != nil && typeAsName(name, apply)
	case "template_type":
		name := t.Child("name")
		if name == nil || !typeAsName(name, apply) {
			return false
		}
		if apply {
			t.Kind = "template_function"
		}
		return true
	}
	return false
}

// replace returns nodes with old replaced by new.
func replace(nodes []*syntax.Node, old, new *syntax.Node) []*syntax.Node {
	for i, n := range nodes {
		if n == old {
			nodes[i] = new
		}
	}
	return nodes
}
