package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/read"
)

// TestHashlineDescriptionExample: the worked example in the hashline
// description is what read shows for its file, and its input does what
// the description says when given to the tool.
func TestHashlineDescriptionExample(t *testing.T) {
	t.Parallel()
	desc := hashlineDescription(tool.DefaultSettings().Separator())
	_, rest, ok := strings.Cut(desc, "read showed:\n")
	if !ok {
		t.Fatal("no example in the description")
	}
	shown, rest, _ := strings.Cut(rest, "\nThis input")
	_, rest, _ = strings.Cut(rest, ":\n")
	input, _, _ := strings.Cut(rest, "\n\n")

	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	var file strings.Builder
	for range 11 {
		file.WriteString("// filler\n")
	}
	file.WriteString(strings.Join(exampleLines[:], "\n") + "\n")
	path := filepath.Join(dir, "calc.go")
	if err := os.WriteFile(path, []byte(file.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	out := call(t, read.New(env, nil), map[string]any{"path": "calc.go:12-14"}).FirstText()
	if !strings.Contains(out, shown) {
		t.Fatalf("read shows\n%s\nthe description shows\n%s", out, shown)
	}
	res := call(t, New(env), map[string]any{"input": input})
	if res.IsError {
		t.Fatalf("example input %q: %s", input, res.FirstText())
	}
	got, _ := os.ReadFile(path)
	want := strings.Repeat("// filler\n", 11) + "func add(a, b int) int {\n\treturn a + b\n}\n\nfunc zero() int { return 0 }\n"
	if string(got) != want {
		t.Fatalf("file after the example:\n%s", got)
	}
}
