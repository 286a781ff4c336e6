package edits

import "fmt"

// Op is what one applied change did.
type Op int

// The operations of a workspace edit.
const (
	OpEdit   Op = iota // text edits to a file
	OpCreate           // a file created (or emptied, with overwrite)
	OpRename           // a file or directory moved
	OpDelete           // a file or directory deleted
)

// Change is one change Apply made.
type Change struct {
	Op    Op
	Path  string // absolute: the file edited, created or deleted; a move's destination
	From  string // absolute: a move's source; "" otherwise
	Edits int    // OpEdit: how many text edits the server sent for the file
	Dir   bool   // OpRename, OpDelete: the path was a directory
}

// Result lists the changes Apply made, in the order it made them. Changes
// the server marked as skippable (a create with ignoreIfExists of an
// existing file, a delete with ignoreIfNotExists of a missing one) and
// did not happen are not listed.
type Result struct {
	Changes []Change
}

// Summary is one line per change, for "Applied rename:" and the like:
// "Applied N edit(s) to a.go", "Created b.go", "Renamed a.go → b.go",
// "Deleted c.go". display renders paths (nil: as they are).
func (r Result) Summary(display func(abs string) string) []string {
	if display == nil {
		display = func(abs string) string { return abs }
	}
	lines := make([]string, 0, len(r.Changes))
	for _, c := range r.Changes {
		switch c.Op {
		case OpEdit:
			lines = append(lines, fmt.Sprintf("Applied %d edit(s) to %s", c.Edits, display(c.Path)))
		case OpCreate:
			lines = append(lines, "Created "+display(c.Path))
		case OpRename:
			lines = append(lines, "Renamed "+display(c.From)+" → "+display(c.Path))
		case OpDelete:
			lines = append(lines, "Deleted "+display(c.Path))
		}
	}
	return lines
}

// Files are the paths whose content the servers should be told about
// again (edited, created, or a move's destination), in order, each once.
func (r Result) Files() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range r.Changes {
		if c.Op == OpDelete || seen[c.Path] {
			continue
		}
		seen[c.Path] = true
		out = append(out, c.Path)
	}
	return out
}
