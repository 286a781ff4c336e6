package registry

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// read serves gopi's own documentation: pi:// lists the embedded files,
// pi://<name> reads one (with a line selector), a missing name suggests
// near ones, ".." is refused.
func TestReadPiDocs(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	svc := testServices(t, env)
	read, _ := New("read", env, svc)
	res := call(t, read, map[string]any{"path": "pi://"})
	for _, want := range []string{"gopi documentation", "[README.md](pi://README.md)", "[tools.md](pi://tools.md)", "[configuration.md](pi://configuration.md)"} {
		if res.IsError || !strings.Contains(res.FirstText(), want) {
			t.Fatalf("pi:// lacks %q:\n%s", want, res.FirstText())
		}
	}
	if res := call(t, read, map[string]any{"path": "pi://tools.md:1-3"}); res.IsError || !strings.Contains(res.FirstText(), "# The agent's tools") {
		t.Fatalf("pi://tools.md: %q", res.FirstText())
	}
	if res := call(t, read, map[string]any{"path": "pi://tool"}); !res.IsError || !strings.Contains(res.FirstText(), "did you mean tools.md") {
		t.Fatalf("missing file: %q", res.FirstText())
	}
	if res := call(t, read, map[string]any{"path": "pi://../go.mod"}); !res.IsError || !strings.Contains(res.FirstText(), `".."`) {
		t.Fatalf("traversal: %q", res.FirstText())
	}
}
