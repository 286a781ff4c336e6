package read

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// fakeResources serves skill:// with one document.
type fakeResources struct{}

func (fakeResources) ReadInternal(url string) (string, string, bool, error) {
	if !strings.HasPrefix(url, "skill://") {
		return "", "", false, nil
	}
	if url != "skill://doc" {
		return "", "", true, errors.New("unknown skill \"nope\"; skills: doc")
	}
	return "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n", "/skills/doc/SKILL.md", true, nil
}

// refsDir is the directory fakeResources serves as skill://doc/refs.
var refsDir string

func (fakeResources) InternalFile(url string) (string, bool, error) {
	if url == "skill://doc/refs" {
		return refsDir, true, nil
	}
	return "", false, nil
}

func TestReadSessionResources(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	env.SetInternalResources(fakeResources{})
	res := call(t, env, "skill://doc:6-6")
	if res.IsError || !strings.Contains(res.FirstText(), "l6") || strings.Contains(res.FirstText(), "l2\n") || strings.Contains(res.FirstText(), "l12") {
		t.Fatalf("selector: %q", res.FirstText())
	}
	if d, ok := res.Details.(*Details); !ok || d.ResolvedPath != "/skills/doc/SKILL.md" || d.Source != "skill://doc" {
		t.Errorf("details = %+v", res.Details)
	}
	if res := call(t, env, "skill://nope"); !res.IsError || !strings.Contains(res.FirstText(), "skills: doc") {
		t.Errorf("unknown: %q", res.FirstText())
	}
	refsDir = t.TempDir()
	if err := os.WriteFile(filepath.Join(refsDir, "tables.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := call(t, env, "skill://doc/refs"); res.IsError || !strings.Contains(res.FirstText(), "tables.md") {
		t.Errorf("directory: %q", res.FirstText())
	}
	if res := call(t, env, "rule://x"); !res.IsError || !strings.Contains(res.FirstText(), "not available in this session") {
		t.Errorf("unserved scheme: %q", res.FirstText())
	}
}
