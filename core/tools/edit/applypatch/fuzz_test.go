package applypatch

import (
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// FuzzApplyPatchParse checks that the envelope parser never panics, that
// every section it returns is well formed and that the streaming parser
// returns the same sections for a complete envelope, and that applying
// each section to an in-memory tree never panics and, for an update,
// returns lines and regions that rebuild both texts. The seed corpus
// (testdata/fuzz) holds the patches of the apply_patch golden cases.
func FuzzApplyPatchParse(f *testing.F) {
	for _, s := range []string{
		"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n@@ ctx\n-a\n+b\n*** End of File\n*** End Patch\n",
		"<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF",
		"*** Begin Patch\n*** Update File: a\n*** Move to: b\n a\n-b\n\n@@\n+c\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n@@\n*** End Patch",
	} {
		f.Add(s, "a\nb\nctx\nc\n")
	}
	f.Fuzz(func(t *testing.T, patch, file string) {
		ops, err := ParseEnvelope(patch)
		if err != nil {
			return
		}
		if streamed := ParseEnvelopeStreaming(patch); !slices.Equal(streamed, ops) {
			t.Fatalf("streaming parse differs:\n%+v\n%+v", streamed, ops)
		}
		fsys := newMemFS(map[string]string{"/w/a": file, "/w/b": file})
		for _, op := range ops {
			if op.Path == "" && op.Kind != UpdateFile {
				t.Fatalf("section without a path: %+v", op)
			}
			if op.Kind == AddFile && op.Diff != "" && !strings.HasSuffix(op.Diff, "\n") {
				t.Fatalf("add contents without final newline: %q", op.Diff)
			}
			changes, err := ApplyOp(op, fsys)
			if err != nil {
				continue
			}
			for _, c := range changes {
				if c.Kind == UpdateFile {
					checkRegions(t, c)
				}
			}
		}
	})
}

// checkRegions fails unless an update's lines are its old content's and
// its regions let a diff rebuild both texts.
func checkRegions(t *testing.T, c Change) {
	t.Helper()
	a, b := c.OldLines, c.NewLines
	if wantA, _ := textfile.Lines(textfile.Decode([]byte(c.Old)).Text); !slices.Equal(a, wantA) {
		t.Fatalf("old lines %q, want %q", a, wantA)
	}
	var gotA, gotB []string
	for _, e := range diff.LinesInRegions(a, b, c.Regions) {
		if e.Kind != diff.Insert {
			gotA = append(gotA, e.Text)
		}
		if e.Kind != diff.Delete {
			gotB = append(gotB, e.Text)
		}
	}
	if !slices.Equal(gotA, a) || !slices.Equal(gotB, b) {
		t.Fatalf("region diff does not rebuild the texts:\n%q\n%q\nregions %+v", a, b, c.Regions)
	}
}

// FuzzParseDiffHunks checks that the patch-mode diff parser never panics,
// that it returns hunks or an error (never neither), and that applying the
// hunks to a small file never panics.
func FuzzParseDiffHunks(f *testing.F) {
	for _, s := range []string{
		"@@ def greet():\n def greet():\n-    print('Hi')\n+    print('Hello')\n",
		"diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -2,2 +2,2 @@ ctx\n two\n-three\n+THREE\n",
		"alpha\n...\n-gamma\n+GAMMA",
		"@@\n 1  first\n-2  second\n+2  SECOND\n 3  third\n",
		"@@ line 3\n-x\n+y\n*** End of File\n",
		"*** Begin Patch\n@@ top of file\n+a\n\n@@\n-b\n*** End Patch",
		"@@\n",
		"@@ -0,1 +1 @@\n-a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		chunks, err := ParseDiffHunks(s)
		if err == nil && len(chunks) == 0 {
			t.Fatalf("ParseDiffHunks(%q): no hunks and no error", s)
		}
		if err != nil {
			return
		}
		_, _ = updatedText("one\ntwo\nthree\n", chunks, "a.txt")
	})
}
