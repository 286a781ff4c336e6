package rendermermaid

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/golden"
)

func call(t *testing.T, env *tool.Env, args map[string]any) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), New(env), raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The drawing comes back with the artifact footer, and the artifact
// holds the drawing alone; without an artifact store there is no footer.
func TestDrawsAndSaves(t *testing.T) {
	env := tool.NewEnv(t.TempDir())
	dir := filepath.Join(t.TempDir(), "artifacts")
	env.Artifacts = artifact.NewStore(dir)
	res := call(t, env, map[string]any{"mermaid": "graph TD; A-->B"})
	drawing, footer, ok := strings.Cut(res.FirstText(), "\n\nSaved artifact: ")
	if res.IsError || !ok || footer != "artifact://0" || res.Details.(*Details).ArtifactID != "0" {
		t.Fatalf("%+v %q", res.IsError, res.FirstText())
	}
	saved, err := os.ReadFile(filepath.Join(dir, "0.render_mermaid.log"))
	if err != nil || string(saved) != drawing {
		t.Fatalf("artifact %q (%v), drawing %q", saved, err, drawing)
	}
	golden.Check(t, filepath.Join("testdata", "default.golden"), res.FirstText()+"\n")

	env.Artifacts = nil
	res = call(t, env, map[string]any{"mermaid": "graph TD; A-->B"})
	if res.IsError || res.FirstText() != drawing || res.Details.(*Details).ArtifactID != "" {
		t.Fatalf("without artifacts: %q", res.FirstText())
	}
}

// config numbers are rounded down and negative ones count as 0, as omp
// sanitises them; useAscii switches the characters.
func TestConfig(t *testing.T) {
	env := tool.NewEnv(t.TempDir())
	res := call(t, env, map[string]any{"mermaid": "graph LR\nA-->B", "config": map[string]any{"useAscii": true, "paddingX": 2.9, "paddingY": -3, "boxBorderPadding": 0.5}})
	want := "+-+   +-+\n|A+-->|B|\n+-+   +-+"
	if res.IsError || res.FirstText() != want {
		t.Fatalf("got\n%s\nwant\n%s", res.FirstText(), want)
	}
}

// Invalid Mermaid fails with the line that could not be read.
func TestErrors(t *testing.T) {
	env := tool.NewEnv(t.TempDir())
	var b strings.Builder
	for _, src := range []string{"", "pie\n\"a\": 1", "graph TD\nA --> B -->", "sequenceDiagram\nA->>B: hi\nelse"} {
		res := call(t, env, map[string]any{"mermaid": src})
		if !res.IsError {
			t.Fatalf("%q drew %q", src, res.FirstText())
		}
		b.WriteString(res.FirstText() + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "errors.golden"), b.String())
}
