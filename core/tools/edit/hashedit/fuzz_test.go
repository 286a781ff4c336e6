package hashedit

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
)

// format renders parsed sections back into input text.
func format(in *Input, sep string) string {
	var b strings.Builder
	target := func(t Target) string {
		switch t.Special {
		case BOF:
			return "BOF"
		case EOF:
			return "EOF"
		}
		return t.Ref.String()
	}
	for _, s := range in.Sections {
		b.WriteString("@@ " + s.Path + "\n")
		for _, op := range s.Ops {
			switch op.Kind {
			case InsertAfter:
				b.WriteString("+ " + target(op.At) + "\n")
			case InsertBefore:
				b.WriteString("< " + target(op.At) + "\n")
			case Delete:
				b.WriteString("- " + op.From.String() + ".." + op.To.String() + "\n")
			case Replace:
				b.WriteString("= " + op.From.String() + ".." + op.To.String() + "\n")
			}
			for _, p := range op.Payload {
				b.WriteString(sep + p + "\n")
			}
		}
	}
	return b.String()
}

// shape drops input line numbers, which formatting changes.
func shape(in *Input) []Section {
	out := make([]Section, len(in.Sections))
	for i, s := range in.Sections {
		out[i] = Section{Path: s.Path}
		for _, op := range s.Ops {
			op.Line = 0
			out[i].Ops = append(out[i].Ops, op)
		}
	}
	return out
}

// FuzzHashlineParse checks that the parser never panics, that what it accepts is
// well formed and survives a format/parse round trip, and that applying
// it to a small file never panics and either succeeds or fails with one
// of the documented error kinds.
func FuzzHashlineParse(f *testing.F) {
	for _, s := range []string{
		"@@ a.txt\n+ 1ab\n~x\n",
		"*** Begin Patch\n@@ a.txt\n= 1ab..2cd\n~x\n~y\n*** End Patch\n",
		"@@ a\n- 2ab..3cd\n< BOF\n~top\n+ EOF\n~end\n@ b\n= 1zz..1zz\n",
		"@@@ a\n+ 1ab|text\n~\n*** Abort\n- 1ab..1ab",
		"\n\n@@ /abs/a\n= 3xy..3xy\n",
		"@@ a\n~stray",
		"@@ a\n- 5ab..2cd",
		"@\n",
	} {
		f.Add(s, "one\n}\ntwo\n}\n")
	}
	f.Fuzz(func(t *testing.T, input, file string) {
		in, err := Parse(input, "/abs", "~")
		if err != nil {
			return
		}
		for _, s := range in.Sections {
			if s.Path == "" {
				t.Fatal("empty path accepted")
			}
			for _, op := range s.Ops {
				if (op.Kind == InsertAfter || op.Kind == InsertBefore) && len(op.Payload) == 0 {
					t.Fatalf("insert without payload: %+v", op)
				}
				if (op.Kind == Delete || op.Kind == Replace) && op.From.Line > op.To.Line {
					t.Fatalf("reversed range accepted: %+v", op)
				}
			}
		}
		if !strings.Contains(input, "\r") && allPlainPaths(in) {
			again, err := Parse(format(in, "~"), "/abs", "~")
			if err != nil {
				t.Fatalf("formatted input does not parse: %v\n%s", err, format(in, "~"))
			}
			if !reflect.DeepEqual(shape(in), shape(again)) {
				t.Fatalf("round trip changed the ops:\n%+v\n%+v", shape(in), shape(again))
			}
		}
		lines := hashline.SplitLines(file)
		for _, s := range in.Sections {
			res, err := Apply(lines, s.Ops, Options{AutoDropInsertDuplicates: true})
			var mm *MismatchError
			var oor *hashline.OutOfRangeError
			switch {
			case err == nil:
				if res == nil {
					t.Fatal("nil result without error")
				}
				checkRegions(t, lines, res)
			case errors.As(err, &mm):
				_ = mm.Error()
			case errors.As(err, &oor):
			case strings.Contains(err.Error(), "overlaps the range"):
			default:
				t.Fatalf("unexpected error kind: %v", err)
			}
		}
	})
}

// allPlainPaths reports whether every path would be read back unchanged
// from a header (no leading '@' or surrounding space).
func allPlainPaths(in *Input) bool {
	for _, s := range in.Sections {
		if strings.TrimSpace(strings.TrimLeft(s.Path, "@")) != s.Path {
			return false
		}
	}
	return true
}
