package commitgen

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestOrder(t *testing.T) {
	deps := func(ds ...[]int) []Group {
		g := make([]Group, len(ds))
		for i, d := range ds {
			g[i].Dependencies = d
		}
		return g
	}
	for _, tc := range []struct {
		name   string
		groups []Group
		want   []int
		err    string
	}{
		{"plan order without dependencies", deps(nil, nil, nil), []int{0, 1, 2}, ""},
		{"a dependency first", deps([]int{1}, nil), []int{1, 0}, ""},
		{"a chain backwards", deps([]int{1}, []int{2}, nil), []int{2, 1, 0}, ""},
		{"a repeated dependency counts once", deps([]int{1, 1}, nil), []int{1, 0}, ""},
		{"a cycle", deps([]int{1}, []int{0}), nil, ErrCycle.Error()},
		{"out of range", deps([]int{2}, nil), nil, "commit 1 depends on commit index 2, which does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Order(tc.groups)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%v %v, want %v", got, err, tc.want)
			}
		})
	}
	if _, err := Order(deps([]int{0})); !errors.Is(err, ErrCycle) {
		t.Fatalf("a commit depending on itself: %v", err)
	}
}

const twoFiles = `diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
@@ -10,2 +10,3 @@ ten
 ten
+ten and a half
 eleven
diff --git a/img.png b/img.png
index 3333333..4444444 100644
Binary files a/img.png and b/img.png differ
`

func TestParseFileDiffsAndHunks(t *testing.T) {
	files := ParseFileDiffs(twoFiles)
	if len(files) != 2 || files[0].Path != "a.txt" || files[1].Path != "img.png" || !files[1].Binary || files[0].Binary {
		t.Fatalf("%+v", files)
	}
	if files[0].Additions != 2 || files[0].Deletions != 1 {
		t.Fatalf("counts %+v", files[0])
	}
	hunks := files[0].Hunks()
	if len(hunks) != 2 || hunks[1].Index != 1 || hunks[1].NewStart != 10 || hunks[1].NewLines != 3 || hunks[0].OldLines != 3 {
		t.Fatalf("hunks %+v", hunks)
	}
	if !strings.HasPrefix(hunks[1].Content, "@@ -10,2 +10,3 @@ ten\n ten\n+ten and a half\n eleven") {
		t.Fatalf("hunk content %q", hunks[1].Content)
	}
	if got := (HunkSelector{Type: HunksLines, Start: 11, End: 11}).Select(hunks); len(got) != 1 || got[0].Index != 1 {
		t.Fatalf("lines 11-11 picked %+v", got)
	}
	byPath := map[string]FileDiff{"a.txt": files[0], "img.png": files[1]}
	patch, err := GroupPatch(byPath, Group{Changes: []FileChange{{Path: "a.txt", Hunks: HunkSelector{Type: HunksIndices, Indices: []int{2}}}}})
	want := "diff --git a/a.txt b/a.txt\nindex 1111111..2222222 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -10,2 +10,3 @@ ten\n ten\n+ten and a half\n eleven\n"
	if err != nil || patch != want {
		t.Fatalf("patch %q %v", patch, err)
	}
	if _, err := GroupPatch(byPath, Group{Changes: []FileChange{{Path: "img.png", Hunks: HunkSelector{Type: HunksIndices, Indices: []int{1}}}}}); err == nil || !strings.Contains(err.Error(), "binary") {
		t.Fatalf("hunks of a binary file: %v", err)
	}
	if _, err := GroupPatch(byPath, Group{Changes: []FileChange{{Path: "b.txt"}}}); err == nil {
		t.Fatal("a file without a change")
	}
}

func TestParseNumstat(t *testing.T) {
	got := ParseNumstat("3\t1\tsrc/a.go\n-\t-\timg.png\n1\t0\tsrc/{old => new}/b.go\n2\t2\tx.go => y.go\n")
	want := []NumstatEntry{{"src/a.go", 3, 1}, {"img.png", 0, 0}, {"src/new/b.go", 1, 0}, {"y.go", 2, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v", got)
	}
}

// FuzzParseFileDiffs: any text parses without a panic, every hunk's
// content starts with its header, and a whole-file selection rebuilds
// each file's section.
func FuzzParseFileDiffs(f *testing.F) {
	f.Add(twoFiles)
	f.Add("diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b")
	f.Add("@@ garbage\ndiff --git a/ b/\n")
	f.Fuzz(func(t *testing.T, diff string) {
		for _, fd := range ParseFileDiffs(diff) {
			for _, h := range fd.Hunks() {
				if !strings.HasPrefix(h.Content, h.Header) {
					t.Fatalf("hunk %q does not start with its header %q", h.Content, h.Header)
				}
			}
			if !strings.HasPrefix(fd.Content, fd.Header()) {
				t.Fatalf("header %q is not the start of %q", fd.Header(), fd.Content)
			}
			p, err := GroupPatch(map[string]FileDiff{fd.Path: fd}, Group{Changes: []FileChange{{Path: fd.Path, Hunks: HunkSelector{Type: HunksAll}}}})
			if err != nil || (p != fd.Content && p != fd.Content+"\n") {
				t.Fatalf("whole-file patch %q %v", p, err)
			}
		}
	})
}
