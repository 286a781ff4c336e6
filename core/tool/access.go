package tool

// Access is what one call does, as a permission gate sees it.
type Access struct {
	// Tool is the tool whose permission the call needs: the called tool's
	// own name, another tool's (resolve applying an ast_edit preview needs
	// ast_edit's), or "" when the call needs none because it only stages
	// a change that a later call applies, or hands work to agents whose
	// own calls are checked.
	Tool string
	// Writes reports that the call may change files or run or stop
	// programs.
	Writes bool
	// Summary, when set, says in one line what the call does, for the
	// question put to the user (resolve: the staged change's label).
	Summary string
}

// AccessReporter is implemented by tools whose calls differ in what they
// do (job lists, waits or cancels; resolve applies or discards).
type AccessReporter interface {
	// Access describes one call with its validated arguments.
	Access(args Args) Access
}

// CallAccess returns what a call of t with args does: the tool's own
// report when it makes one, else its name, writing unless its definition
// declares it ReadOnly.
func CallAccess(t Tool, args Args) Access {
	if r, ok := t.(AccessReporter); ok {
		return r.Access(args)
	}
	def := t.Definition()
	return Access{Tool: def.Name, Writes: !def.ReadOnly}
}
