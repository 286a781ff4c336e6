package applypatch

import (
	"errors"
	"slices"
	"testing"
)

func TestParseEnvelopeErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ patch, want string }{
		{"", "The first line of the patch must be '*** Begin Patch'"},
		{"*** Begin Patch\n*** Add File: a\n+x", "The last line of the patch must be '*** End Patch'"},
		{"*** Begin Patch\n*** Frobnicate File: a\n*** End Patch", "Line 2: '*** Frobnicate File: a' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'"},
		{"*** Begin Patch\n*** Update File: a\n*** End Patch", "Line 3: Update file hunk for path 'a' is empty"},
		{"*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Delete File: c\n*** End Patch", "Line 4: Update file hunk for path 'a' is empty"},
		{"*** Begin Patch\n*** Delete File:\n*** End Patch", "Line 2: '*** Delete File:' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'"},
		{"<<\"EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF", "The first line of the patch must be '*** Begin Patch'"},
		{"<<EOF \n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF", "The first line of the patch must be '*** Begin Patch'"},
	}
	for _, c := range cases {
		_, err := ParseEnvelope(c.patch)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseEnvelope(%q)\n got: %v\nwant: %s", c.patch, err, c.want)
		}
	}
	if _, err := ParseEnvelope("*** Begin Patch\n\n*** End Patch"); !errors.Is(err, ErrNoFiles) {
		t.Errorf("empty envelope: %v", err)
	}
}

// Sections are read as omp reads them: headers trimmed, an Update File
// body kept verbatim up to the next unindented header (blank lines, *** End
// of File and an indented header inside it), Move to only right after the
// header and unindented.
func TestParseEnvelopeShapes(t *testing.T) {
	t.Parallel()
	patch := "  *** Begin Patch  \n*** Add File: new.txt\n+one\n+\n*** Delete File: old.txt  \n\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n-print(\"Hi\")\n+print(\"Hello\")\n\n@@\n a\n-b\n*** End of File\n  *** Add File: x\n*** Update File: c\n *** Move to: d\n-c\n+C\n *** End Patch "
	ops, err := ParseEnvelope(patch)
	if err != nil {
		t.Fatal(err)
	}
	want := []FileOp{
		{Kind: AddFile, Path: "new.txt", Diff: "one\n\n"},
		{Kind: DeleteFile, Path: "old.txt"},
		{Kind: UpdateFile, Path: "src/app.py", MovePath: "src/main.py", Diff: "@@ def greet():\n-print(\"Hi\")\n+print(\"Hello\")\n\n@@\n a\n-b\n*** End of File\n  *** Add File: x"},
		{Kind: UpdateFile, Path: "c", Diff: " *** Move to: d\n-c\n+C"},
	}
	if !slices.Equal(ops, want) {
		t.Fatalf("got  %+v\nwant %+v", ops, want)
	}
}

func TestParseEnvelopeHeredoc(t *testing.T) {
	t.Parallel()
	for _, open := range []string{"<<EOF", "<<'EOF'", `<<"EOF"`} {
		ops, err := ParseEnvelope("\n" + open + "\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n EOF \n")
		if err != nil || len(ops) != 1 {
			t.Errorf("%s: %v %v", open, ops, err)
		}
	}
}

func TestParseEnvelopeStreaming(t *testing.T) {
	t.Parallel()
	ops := ParseEnvelopeStreaming("*** Begin Patch\n*** Add File: a\n+x\n*** Update File: b\n*** Bogus\n*** Delete File: c")
	want := []FileOp{{Kind: AddFile, Path: "a", Diff: "x\n"}, {Kind: UpdateFile, Path: "b", Diff: "*** Bogus"}, {Kind: DeleteFile, Path: "c"}}
	if !slices.Equal(ops, want) {
		t.Fatalf("got %+v", ops)
	}
	if ops := ParseEnvelopeStreaming("*** Begin Patch\n*** Update File: b"); len(ops) != 1 || ops[0].Diff != "" {
		t.Fatalf("an update still arriving: %+v", ops)
	}
	if ops := ParseEnvelopeStreaming("*** Begin Patch\n*** Frob\n*** Delete File: c"); len(ops) != 0 {
		t.Fatalf("stops at an unreadable line: %+v", ops)
	}
	if ops := ParseEnvelopeStreaming("hello"); ops != nil {
		t.Fatalf("not an envelope: %+v", ops)
	}
	if _, err := ParseEnvelope("*** Begin Patch\n*** Add File: a\n+x"); err == nil {
		t.Fatal("ParseEnvelope accepted a patch without its end marker")
	}
}

func TestFoldTable(t *testing.T) {
	t.Parallel()
	in := "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\u2016"
	want := "-------''''\"\"\"\"             \u2016"
	if got := foldPunctuation(in); got != want {
		t.Fatalf("fold = %q, want %q", got, want)
	}
}

// Markers are trimmed as JavaScript trims: U+FEFF is white space, U+0085
// (which Go counts as space) is not.
func TestParseEnvelopeTrimsAsJavaScript(t *testing.T) {
	t.Parallel()
	if ops, err := ParseEnvelope("\ufeff*** Begin Patch\n*** Delete File: a\ufeff\n\u00a0*** End Patch\ufeff"); err != nil || len(ops) != 1 || ops[0].Path != "a" {
		t.Errorf("U+FEFF and U+00A0 around markers: %+v %v", ops, err)
	}
	if _, err := ParseEnvelope("*** Begin Patch\u0085\n*** Delete File: a\n*** End Patch"); err == nil || err.Error() != "The first line of the patch must be '*** Begin Patch'" {
		t.Errorf("U+0085 after the begin marker: %v", err)
	}
	if ops, err := ParseEnvelope("*** Begin Patch\n*** Delete File: a\u0085\n*** End Patch"); err != nil || len(ops) != 1 || ops[0].Path != "a\u0085" {
		t.Errorf("U+0085 after a path: %+v %v", ops, err)
	}
}
