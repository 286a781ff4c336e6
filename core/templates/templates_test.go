package templates

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiscoverAndExpand(t *testing.T) {
	root := t.TempDir()
	home, cwd := filepath.Join(root, "home"), filepath.Join(root, "proj")
	d := config.ResolveDirs(func(string) string { return "" }, home, cwd)
	write(t, filepath.Join(cwd, ".gopi", "prompts", "review.md"), "---\ndescription: Review a file\n---\nReview $1 for $2.\nFocus: ${@:3}\n")
	write(t, filepath.Join(home, ".gopi", "agent", "prompts", "review.md"), "user copy $@")
	write(t, filepath.Join(home, ".omp", "agent", "commands", "fix.md"), "# Fix the issue\nFix issue $ARGUMENTS please.\n")
	write(t, filepath.Join(home, ".claude", "commands", "plain.md"), "Plain text.")
	write(t, filepath.Join(home, ".codex", "prompts", "fix.md"), "codex copy")
	write(t, filepath.Join(home, ".claude", "commands", "broken.md"), "---\ndescription: [x\n---\nBody $1")
	set, warns := Discover(d.TemplateDirs())
	var joined string
	for _, w := range warns {
		joined += w.Error() + "\n"
	}
	if !strings.Contains(joined, "broken.md: front matter") || !strings.Contains(joined, "shadowed") {
		t.Errorf("warnings:\n%s", joined)
	}
	if tp, _ := set.Get("review"); tp == nil || tp.Description != "Review a file" || tp.Level != config.LevelProject {
		t.Errorf("review = %+v", tp)
	}
	if tp, _ := set.Get("fix"); tp == nil || tp.Description != "Fix the issue" || tp.Provider != config.ProviderNative {
		t.Errorf("fix = %+v", tp)
	}
	cases := map[string]string{
		`/review main.go "error handling" a b c`: "Review main.go for error handling.\nFocus: a b c",
		"/review x":                              "Review x for .\nFocus: ",
		"/fix 42 now":                            "# Fix the issue\nFix issue 42 now please.",
		"/plain":                                 "Plain text.",
		"/plain extra words":                     "Plain text.\n\nextra words",
		"/broken one":                            "Body one",
	}
	for in, want := range cases {
		got, _, ok := set.Expand(in)
		if !ok || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"/unknown x", "review x", "/", "a /review"} {
		if _, _, ok := set.Expand(in); ok {
			t.Errorf("Expand(%q) expanded", in)
		}
	}
}

func TestSplitArgsAndSubstitute(t *testing.T) {
	got := SplitArgs(`a "b c" 'd e' f\ g "h\"i" ''`)
	want := []string{"a", "b c", "d e", "f g", `h"i`, ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SplitArgs = %q, want %q", got, want)
	}
	if s := Substitute("${@:2:2}|$9|$@", []string{"1", "2", "3", "4"}); s != "2 3||1 2 3 4" {
		t.Errorf("Substitute = %q", s)
	}
}
