package registry

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// fakeHost serves db:// URLs from a map.
type fakeHost struct{ rows map[string]string }

func (h *fakeHost) ReadURI(_ context.Context, url string) (*tool.HostURIContent, error) {
	c, ok := h.rows[url]
	if !ok {
		return nil, errors.New("row not found")
	}
	return &tool.HostURIContent{Content: c, Notes: []string{"from the host"}}, nil
}

func (h *fakeHost) WriteURI(_ context.Context, url, content string) error {
	h.rows[url] = content
	return nil
}

func call(t *testing.T, tl tool.Tool, args map[string]any) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), tl, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Host-owned URLs: read and write go to the host, edit refuses them, and a
// read-only scheme refuses writes.
func TestHostURIs(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	svc := testServices(t, env)
	host := &fakeHost{rows: map[string]string{"db://users/42": "id=42\nname=Alice\n"}}
	env.SetHostURIs(host, []tool.HostURIScheme{{Scheme: "DB", Writable: true}, {Scheme: "ro"}})
	read, _ := New("read", env, svc)
	write, _ := New("write", env, svc)
	edit, _ := New("edit", env, svc)

	res := call(t, read, map[string]any{"path": "db://users/42"})
	if res.IsError || !strings.Contains(res.FirstText(), "name=Alice") || !strings.Contains(res.FirstText(), "from the host") {
		t.Fatalf("read: %q", res.FirstText())
	}
	if res := call(t, read, map[string]any{"path": "db://users/7"}); !res.IsError || !strings.Contains(res.FirstText(), "row not found") {
		t.Fatalf("missing row: %q", res.FirstText())
	}
	if res := call(t, write, map[string]any{"path": "db://users/42", "content": "id=42\nname=Bob\n"}); res.IsError || host.rows["db://users/42"] != "id=42\nname=Bob\n" {
		t.Fatalf("write: %q %v", res.FirstText(), host.rows)
	}
	if res := call(t, write, map[string]any{"path": "ro://x", "content": "y"}); !res.IsError || !strings.Contains(res.FirstText(), "read-only") {
		t.Fatalf("read-only write: %q", res.FirstText())
	}
	if res := call(t, edit, map[string]any{"input": "@@ db://users/42\n+ EOF\n~x\n"}); !res.IsError || !strings.Contains(res.FirstText(), "cannot be edited") {
		t.Fatalf("edit: %q", res.FirstText())
	}
}
