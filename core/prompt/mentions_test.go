package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMentions(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bin"), []byte{0, 1, 2}, 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	got := Mentions("look at @a.go, @bin @sub @missing.txt and email me@a.go again @a.go", dir, "")
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	if got[0].Path != "a.go" || got[0].Content != "package a\n" || *got[0].LineCount != 1 {
		t.Errorf("a.go: %+v", got[0])
	}
	if got[1].Path != "bin" || got[1].SkippedReason != "binary" || got[1].Content != "" {
		t.Errorf("bin: %+v", got[1])
	}
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("x", MentionTextLimit+1)), 0o644)
	if got := Mentions("@big.txt", dir, ""); len(got) != 1 || got[0].SkippedReason != "tooLarge" {
		t.Errorf("big: %+v", got)
	}
}
