package search

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// skillFiles serves skill://doc from a file.
type skillFiles struct{ file string }

func (s skillFiles) ReadInternal(string) (string, string, bool, error) { return "", "", false, nil }

func (s skillFiles) InternalFile(url string) (string, bool, error) {
	if !strings.HasPrefix(url, "skill://") {
		return "", false, nil
	}
	if url != "skill://doc" {
		return "", true, errors.New("unknown skill")
	}
	return s.file, true, nil
}

func TestSearchSkillURL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(file, []byte("intro\nrun the needle step\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := tool.NewEnv(t.TempDir())
	env.SetInternalResources(skillFiles{file})
	res, err := tool.Run(context.Background(), New(env), json.RawMessage(`{"pattern":"needle","paths":["skill://doc"]}`), nil)
	if err != nil || res.IsError || !strings.Contains(res.FirstText(), "run the needle step") {
		t.Fatalf("search skill://doc: %v %q", err, res.FirstText())
	}
	res, _ = tool.Run(context.Background(), New(env), json.RawMessage(`{"pattern":"needle","paths":["skill://nope"]}`), nil)
	if !res.IsError || !strings.Contains(res.FirstText(), "unknown skill") {
		t.Errorf("unknown skill: %q", res.FirstText())
	}
	res, _ = tool.Run(context.Background(), New(env), json.RawMessage(`{"pattern":"needle","paths":["memory://x"]}`), nil)
	if !res.IsError || !strings.Contains(res.FirstText(), "without a backing file") {
		t.Errorf("unserved scheme: %q", res.FirstText())
	}
}
