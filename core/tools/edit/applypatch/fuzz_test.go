package applypatch

import (
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// FuzzApplyPatchParse checks that the parser never panics, that every hunk it
// returns is well formed, and that applying a parsed patch to an
// in-memory tree never panics either.
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
		hunks, err := Parse(patch)
		if _, serr := ParseStreaming(patch); err == nil && serr != nil && !strings.HasPrefix(strings.TrimSpace(patch), "<<") {
			t.Fatalf("streaming parse rejected a valid patch: %v", serr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Invalid patch") {
				t.Fatalf("parse error without prefix: %v", err)
			}
			return
		}
		for _, h := range hunks {
			if h.Kind == UpdateFile && len(h.Chunks) == 0 {
				t.Fatal("update hunk without chunks")
			}
			if h.Kind == AddFile && h.Contents != "" && !strings.HasSuffix(h.Contents, "\n") {
				t.Fatalf("add contents without final newline: %q", h.Contents)
			}
		}
		fsys := newMemFS(map[string]string{"/w/a": file, "/w/b": file})
		res, err := ApplyHunks(hunks, "/w", fsys)
		if err == nil && len(res.Changes) != len(hunks) {
			t.Fatalf("%d changes for %d hunks", len(res.Changes), len(hunks))
		}
		for _, c := range res.Changes {
			if c.Kind != UpdateFile {
				continue
			}
			if c.New != "" && !strings.HasSuffix(c.New, "\n") {
				t.Fatalf("updated file without final newline: %q", c.New)
			}
			// The regions must let a diff rebuild both texts.
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
	})
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
