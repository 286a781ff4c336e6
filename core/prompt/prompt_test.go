package prompt

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/golden"
	"golang.org/x/tools/txtar"
)

// fixedNow is the date the golden prompts state.
var fixedNow = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)

// builtinNames are the tools the golden prompts offer (resolve is hidden
// from the model's tool list, so a session leaves it out).
var builtinNames = []string{"read", "write", "edit", "search", "find", "ast_grep", "ast_edit", "bash"}

// extract writes the files of a txtar archive under a new temporary
// directory and returns it (symlinks resolved, so paths compare equal).
func extract(t testing.TB, archive string) string {
	t.Helper()
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, ar.Files)
	return root
}

func writeFiles(t testing.TB, root string, files []txtar.File) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// normalise replaces what differs between machines: the fixture's
// location and the OS.
func normalise(text, root string) string {
	text = strings.ReplaceAll(text, root, "/fixture")
	return strings.ReplaceAll(text, "OS: "+runtime.GOOS+"/"+runtime.GOARCH, "OS: GOOS/GOARCH")
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func fixtureOptions(root string) Options {
	return Options{
		Cwd:   filepath.Join(root, "repo", "pkg", "svc"),
		Home:  filepath.Join(root, "home"),
		Shell: "/bin/bash",
		Now:   fixedNow,
		Tools: builtinNames,
	}
}

// TestBuildGolden builds the prompt for the fixture repository in each
// configuration and compares it with its golden file.
func TestBuildGolden(t *testing.T) {
	root := extract(t, "testdata/fixture.txtar")
	os.WriteFile(filepath.Join(root, "extra.md"), []byte("Appended from a file.\n"), 0o644)
	cases := []struct {
		name   string
		golden string
		edit   func(*Options)
	}{
		{"default", "prompt.golden", func(*Options) {}},
		{"replace mode", "prompt-replace.golden", func(o *Options) { o.EditMode = tool.EditReplace }},
		{"patch mode", "prompt-patch.golden", func(o *Options) { o.EditMode = tool.EditPatch }},
		{"vim mode", "prompt-vim.golden", func(o *Options) { o.EditMode = tool.EditVim }},
		{"custom and append", "prompt-custom.golden", func(o *Options) {
			o.SystemPrompt = "You are a careful reviewer.\nOnly comment; do not edit."
			o.AppendSystemPrompt = filepath.Join(root, "extra.md")
		}},
		{"no tools, no context", "prompt-bare.golden", func(o *Options) {
			o.Tools = nil
			o.ContextFiles = []ContextFile{}
			o.Shell = ""
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := fixtureOptions(root)
			c.edit(&opts)
			p, err := Build(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Warnings) > 0 {
				t.Errorf("warnings: %q", p.Warnings)
			}
			checkGolden(t, c.golden, normalise(p.Text, root)+"\n")
		})
	}
}

func TestBuildErrors(t *testing.T) {
	if _, err := Build(context.Background(), Options{Cwd: "relative"}); err == nil {
		t.Error("a relative working directory was accepted")
	}

	// An unreadable context file is a warning, not an error.
	dir := t.TempDir()
	loop := filepath.Join(dir, "AGENTS.md")
	if err := os.Symlink(loop, loop); err == nil {
		p, err := Build(context.Background(), Options{Cwd: dir, Home: dir, UserDirs: []SourceDir{}})
		if err != nil || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], loop) || len(p.ContextFiles) != 0 {
			t.Errorf("unreadable context file: %v, %+v", err, p)
		}
	}

	if os.Getuid() == 0 {
		t.Skip("root reads unreadable files")
	}
	secret := filepath.Join(dir, "prompt.md")
	os.WriteFile(secret, []byte("x"), 0o000)
	_, err := Build(context.Background(), Options{Cwd: dir, ContextFiles: []ContextFile{}, SystemPrompt: secret})
	if err == nil || !strings.Contains(err.Error(), "--system-prompt") || !strings.Contains(err.Error(), secret) {
		t.Errorf("unreadable prompt file: %v", err)
	}
}

// TestBuildTruncatedNotice: a context file over the cap is cut and says so.
func TestBuildTruncatedNotice(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("0123456789abcdef\n", 100) // 1700 bytes
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(long), 0o644)
	p, err := Build(context.Background(), Options{Cwd: dir, Home: dir, UserDirs: []SourceDir{}, MaxContextFileBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ContextFiles) != 1 || !p.ContextFiles[0].Truncated {
		t.Fatalf("files: %+v", p.ContextFiles)
	}
	if !strings.Contains(p.Text, "[Cut here: the first 986 of 1700 bytes are shown; read the file for the rest.]") {
		t.Errorf("no cut notice in:\n%s", p.Text)
	}
}

// With the lsp tool offered, the inventory says what it is for and the
// rules send symbol lookups to it.
func TestBuildWithLSP(t *testing.T) {
	root := extract(t, "testdata/fixture.txtar")
	opts := fixtureOptions(root)
	opts.Tools = append(slices.Clone(builtinNames), "lsp")
	p, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- lsp: ask the language servers: diagnostics, definitions, references, hover, symbols",
		"find definitions and uses of a symbol with lsp (definition, references) rather than text search",
	} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("missing %q", want)
		}
	}
}

// recipe, render_mermaid and inspect_image have inventory lines, and
// inspect_image a rule sending image questions to it; none appears when
// the tool is not offered.
func TestBuildWithSmallTools(t *testing.T) {
	root := extract(t, "testdata/fixture.txtar")
	opts := fixtureOptions(root)
	opts.Tools = append(slices.Clone(builtinNames), "recipe", "render_mermaid", "inspect_image")
	p, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	wants := []string{
		"- recipe: run one of the project's own tasks",
		"- render_mermaid: draw a Mermaid diagram as text",
		"- inspect_image: ask a vision model a question about an image file",
		"ask inspect_image a specific question about it",
	}
	for _, want := range wants {
		if !strings.Contains(p.Text, want) {
			t.Errorf("missing %q", want)
		}
	}
	opts.Tools = slices.Clone(builtinNames)
	if p, err = Build(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	for _, want := range wants {
		if strings.Contains(p.Text, want) {
			t.Errorf("%q without the tool", want)
		}
	}
}
