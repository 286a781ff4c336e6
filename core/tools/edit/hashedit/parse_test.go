package hashedit

import (
	"errors"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
)

func TestParseSections(t *testing.T) {
	t.Parallel()
	input := "\n*** Begin Patch\n@@ /work/p/src/a.ts\n+ 4fb\n~x\n~\n\n~y\n@@@b.ts\n= 1ab..3cd\n@ src/a.ts\n- 7ab..9cd\n*** End Patch\n@@ ignored.ts\n"
	in, err := Parse(input, "/work/p", "~")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Sections) != 2 || in.Sections[0].Path != "src/a.ts" || in.Sections[1].Path != "b.ts" {
		t.Fatalf("sections: %+v", in.Sections)
	}
	a := in.Sections[0].Ops
	if len(a) != 2 || a[0].Kind != InsertAfter || a[0].At.Ref != (hashline.Ref{Line: 4, Hash: "fb"}) ||
		strings.Join(a[0].Payload, "|") != "x||y" || a[0].Line != 4 {
		t.Fatalf("a.ts op 0: %+v", a[0])
	}
	if a[1].Kind != Delete || a[1].From.Line != 7 || a[1].To.Line != 9 || a[1].Line != 12 {
		t.Fatalf("a.ts op 1 (merged section): %+v", a[1])
	}
	b := in.Sections[1].Ops
	if len(b) != 1 || b[0].Kind != Replace || len(b[0].Payload) != 1 || b[0].Payload[0] != "" {
		t.Fatalf("b.ts: %+v", b)
	}
}

func TestParseCustomSeparator(t *testing.T) {
	t.Parallel()
	in, err := Parse("@@ a\n< BOF\n>>hello\n>> world", "", ">>")
	if err != nil {
		t.Fatal(err)
	}
	op := in.Sections[0].Ops[0]
	if op.Kind != InsertBefore || op.At.Special != BOF || strings.Join(op.Payload, "|") != "hello| world" {
		t.Fatalf("%+v", op)
	}
	_, err = Parse("@@ a\n- 1ab..1ab\n~x", "", ">>")
	if err == nil || err.Error() != "line 3: unrecognized op. Use < ANCHOR..., + ANCHOR..., - A..B..., = A..B..." {
		t.Fatalf("~ must not be a payload with another separator: %v", err)
	}
	_, err = Parse("@@ a\n+ EOF", "", ">>")
	if err == nil || err.Error() != "line 2: + and < operations require at least one >>TEXT payload line." {
		t.Fatalf("got %v", err)
	}
}

func TestParseRowTail(t *testing.T) {
	t.Parallel()
	in, err := Parse("@@ a\n- 3ab|text..4cd|more\n+ 5ef|x\n~y", "", "~")
	if err != nil {
		t.Fatal(err)
	}
	ops := in.Sections[0].Ops
	if ops[0].From.Line != 3 || ops[0].To.Line != 4 || ops[1].At.Ref.Line != 5 {
		t.Fatalf("%+v", ops)
	}
}

func TestAbortWarning(t *testing.T) {
	t.Parallel()
	in, err := Parse("@@ a\n+ EOF\n~x\n*** Abort\n+ EOF\n~y", "", "~")
	if err != nil || len(in.Warnings) != 1 || in.Warnings[0] != AbortWarning || len(in.Sections[0].Ops) != 1 {
		t.Fatalf("%+v %v", in, err)
	}
}

func TestApplyMismatchCollectsAll(t *testing.T) {
	t.Parallel()
	lines := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	stale1 := hashline.Ref{Line: 2, Hash: other(hashline.LineHash(2, "b"))}
	stale2 := hashline.Ref{Line: 8, Hash: other(hashline.LineHash(8, "h"))}
	ops := []Op{
		{Kind: Delete, From: stale1, To: stale1},
		{Kind: InsertAfter, At: Target{Ref: stale2}, Payload: []string{"x"}},
	}
	_, err := Apply(lines, ops, Options{})
	var mm *MismatchError
	if !errors.As(err, &mm) || len(mm.Stale) != 2 {
		t.Fatalf("got %v", err)
	}
	frame := mm.Frame()
	wantRows := []string{" " + hashline.FormatLine(1, "a"), "*" + hashline.FormatLine(2, "b"), " " + hashline.FormatLine(4, "d"), "...", " " + hashline.FormatLine(6, "f"), "*" + hashline.FormatLine(8, "h"), " " + hashline.FormatLine(9, "i")}
	for _, r := range wantRows {
		if !strings.Contains(frame, r+"\n") && !strings.HasSuffix(frame, r) {
			t.Errorf("frame lacks %q:\n%s", r, frame)
		}
	}
}

// other returns a valid hash different from h.
func other(h string) string {
	for _, c := range []string{"ab", "cd"} {
		if c != h {
			return c
		}
	}
	return ""
}

func TestRecoverSparseSnapshot(t *testing.T) {
	t.Parallel()
	// The model saw lines 10..12 of a file (e.g. through search); two
	// lines were since inserted at the top.
	seen := map[int]string{10: "ten", 11: "eleven", 12: "twelve"}
	current := []string{"new", "new2"}
	for i := 1; i <= 14; i++ {
		switch i {
		case 10:
			current = append(current, "ten")
		case 11:
			current = append(current, "eleven")
		case 12:
			current = append(current, "twelve")
		default:
			current = append(current, "l"+string(rune('a'+i)))
		}
	}
	ref := hashline.Ref{Line: 11, Hash: hashline.LineHash(11, "eleven")}
	ops := []Op{{Kind: Replace, From: ref, To: ref, Payload: []string{"ELEVEN"}}}
	res, ok := Recover(current, Snapshot{Lines: seen}, ops, Options{})
	if !ok {
		t.Fatal("recovery failed")
	}
	if res.Lines[12] != "ELEVEN" || len(res.Lines) != len(current) || res.Lines[11] != "ten" {
		t.Fatalf("got %q", res.Lines)
	}
	// An anchor on a line never seen cannot be recovered.
	unseen := hashline.Ref{Line: 3, Hash: "ab"}
	if _, ok := Recover(current, Snapshot{Lines: seen}, []Op{{Kind: Delete, From: unseen, To: unseen}}, Options{}); ok {
		t.Fatal("recovered an edit on an unseen line")
	}
	// EOF without a known line count cannot be placed.
	if _, ok := Recover(current, Snapshot{Lines: seen}, []Op{{Kind: InsertAfter, At: Target{Special: EOF}, Payload: []string{"z"}}}, Options{}); ok {
		t.Fatal("recovered an EOF insert without the line count")
	}
}
