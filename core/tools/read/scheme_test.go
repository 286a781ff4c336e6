package read

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// schemeStub serves mcp:// reads for the test.
type schemeStub struct{}

func (schemeStub) ReadURI(_ context.Context, url string) (*tool.HostURIContent, error) {
	if url == "mcp://srv/missing" {
		return nil, errors.New("no such resource")
	}
	lines := make([]string, 60)
	for i := range lines {
		lines[i] = fmt.Sprintf("resource line %d", i+1)
	}
	return &tool.HostURIContent{Content: strings.Join(lines, "\n")}, nil
}

// An internal scheme the session serves (mcp://) is read through its
// reader, with line selectors; without one it stays unavailable.
func TestReadSchemeReader(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	if res := call(t, env, "mcp://srv/x"); !res.IsError || !strings.Contains(res.FirstText(), "mcp:// resources are not available") {
		t.Fatalf("no reader: %q", res.FirstText())
	}
	env.SetSchemeReader("mcp", schemeStub{})
	res := call(t, env, "mcp://srv/res:30-31")
	if res.IsError || !strings.Contains(res.FirstText(), "resource line 30") || strings.Contains(res.FirstText(), "resource line 1\n") || strings.Contains(res.FirstText(), "resource line 60") {
		t.Fatalf("range: %q", res.FirstText())
	}
	if res := call(t, env, "mcp://srv/missing"); !res.IsError || !strings.Contains(res.FirstText(), "Cannot read mcp://srv/missing: no such resource") {
		t.Fatalf("error: %q", res.FirstText())
	}
}
