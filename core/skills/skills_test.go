package skills

import (
	"errors"
	"os"
	"path/filepath"
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

func skill(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\nBody of " + desc + "\n"
}

func allOn() config.Skills {
	return config.Skills{Enabled: true, EnableSkillCommands: true, EnableCodexUser: true, EnableClaudeUser: true,
		EnableClaudeProject: true, EnableNativeUser: true, EnableNativeProject: true}
}

// fixture lays out a home and a project with skills in every provider's
// directories and returns the configured roots.
func fixture(t *testing.T) (config.Dirs, []config.ResourceDir) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	cwd := filepath.Join(root, "proj", "sub")
	write(t, filepath.Join(root, "proj", ".git", "HEAD"), "ref: refs/heads/main\n")
	// "shared" exists everywhere: the native project one (gopi, in an
	// ancestor) must win.
	write(t, filepath.Join(root, "proj", ".gopi", "skills", "shared", FileName), skill("shared", "gopi project"))
	write(t, filepath.Join(home, ".gopi", "agent", "skills", "shared", FileName), skill("shared", "gopi user"))
	write(t, filepath.Join(home, ".omp", "agent", "skills", "shared", FileName), skill("shared", "omp user"))
	write(t, filepath.Join(home, ".claude", "skills", "shared", FileName), skill("shared", "claude user"))
	// "cc" is claude's and codex's: claude (80) beats codex (70).
	write(t, filepath.Join(home, ".codex", "skills", "cc", FileName), skill("cc", "codex"))
	write(t, filepath.Join(cwd, ".claude", "skills", "cc", FileName), skill("cc", "claude project"))
	// "oc" is opencode's and the .agents directory's: agents (70) wins.
	write(t, filepath.Join(home, ".config", "opencode", "skills", "oc", FileName), skill("oc", "opencode"))
	write(t, filepath.Join(home, ".agents", "skills", "oc", FileName), skill("oc", "agents"))
	write(t, filepath.Join(home, ".config", "opencode", "skills", "only-oc", FileName), skill("only-oc", "opencode only"))
	// omp project skill, found from the subdirectory.
	write(t, filepath.Join(root, "proj", ".omp", "skills", "omp-proj", FileName), skill("omp-proj", "omp project"))
	// Nested skills are not discovered.
	write(t, filepath.Join(home, ".claude", "skills", "team", "inner", FileName), skill("inner", "nested"))
	// A native skill needs a description; claude's does not.
	write(t, filepath.Join(home, ".gopi", "agent", "skills", "nodesc", FileName), "---\nname: nodesc\n---\nx\n")
	write(t, filepath.Join(home, ".claude", "skills", "plain", FileName), "No front matter at all.\n")
	// Broken front matter: still loads (fallback reading), with a warning.
	write(t, filepath.Join(home, ".claude", "skills", "broken", FileName), "---\nname: broken\ndescription: ok\nglobs: [oops\n---\nbody\n")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	d := config.ResolveDirs(func(string) string { return "" }, home, cwd)
	return d, d.SkillDirs()
}

func TestDiscoverPriority(t *testing.T) {
	_, roots := fixture(t)
	set, warns := Discover(Options{Roots: roots, Settings: allOn()})
	want := map[string]string{
		"shared":   "gopi project",
		"cc":       "claude project",
		"oc":       "agents",
		"only-oc":  "opencode only",
		"omp-proj": "omp project",
		"plain":    "",
		"broken":   "ok",
	}
	got := map[string]string{}
	for _, sk := range set.List() {
		got[sk.Name] = sk.Description
	}
	if len(got) != len(want) {
		t.Errorf("skills = %v, want %v", got, want)
	}
	for n, d := range want {
		if g, ok := got[n]; !ok || g != d {
			t.Errorf("skill %s: description %q (found %v), want %q", n, g, ok, d)
		}
	}
	joined := ""
	for _, w := range warns {
		joined += w.Error() + "\n"
	}
	for _, frag := range []string{"nodesc", "broken/SKILL.md: front matter is not valid YAML", "is shadowed by"} {
		if !strings.Contains(joined, frag) {
			t.Errorf("warnings lack %q:\n%s", frag, joined)
		}
	}
}

func TestDiscoverFilters(t *testing.T) {
	_, roots := fixture(t)
	st := allOn()
	st.EnableNativeProject = false
	st.Ignored = []string{"only-*"}
	st.DisabledExtensions = []string{"skill:plain"}
	set, _ := Discover(Options{Roots: roots, Settings: st})
	if sk, _ := set.Get("shared"); sk == nil || sk.Description != "gopi user" {
		t.Errorf("with native project skills off, shared = %+v, want the gopi user one", sk)
	}
	for _, n := range []string{"only-oc", "plain", "omp-proj"} {
		if _, ok := set.Get(n); ok {
			t.Errorf("%s should be filtered out", n)
		}
	}
	set, _ = Discover(Options{Roots: roots, Settings: allOn(), Patterns: []string{"o*"}})
	if got := set.Names(); strings.Join(got, ",") != "oc,omp-proj,only-oc" {
		t.Errorf("--skills o* = %v", got)
	}
	off := allOn()
	off.Enabled = false
	if set, _ := Discover(Options{Roots: roots, Settings: off}); set.Len() != 0 {
		t.Errorf("skills.enabled false still found %v", set.Names())
	}
}

func TestResolvePathChecks(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pdf", FileName), skill("pdf", "PDF work"))
	write(t, filepath.Join(dir, "pdf", "references", "tables.md"), "tables")
	write(t, filepath.Join(dir, "pdf", "my notes.txt"), "notes")
	write(t, filepath.Join(dir, "secret.txt"), "secret")
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "pdf", "link.txt")); err != nil {
		t.Fatal(err)
	}
	set, warns := Discover(Options{Roots: []config.ResourceDir{{Path: dir, Provider: config.ProviderNative, Level: config.LevelUser}}, Settings: allOn()})
	if len(warns) != 0 || set.Len() != 1 {
		t.Fatalf("discover: %v %v", set.Names(), warns)
	}
	ok := map[string]string{
		"skill://pdf":                      filepath.Join(dir, "pdf", FileName),
		"skill://pdf/references/tables.md": filepath.Join(dir, "pdf", "references", "tables.md"),
		"skill://pdf/my%20notes.txt":       filepath.Join(dir, "pdf", "my notes.txt"),
	}
	for u, want := range ok {
		if got, err := set.Resolve(u); err != nil || got != want {
			t.Errorf("Resolve(%s) = %q, %v; want %q", u, got, err, want)
		}
	}
	bad := map[string]error{
		"skill://pdf/../secret.txt":      ErrBadPath,
		"skill://pdf/references/../../x": ErrBadPath,
		"skill://pdf/%2E%2E/secret.txt":  ErrBadPath,
		"skill://pdf//etc/passwd":        ErrBadPath,
		"skill://pdf/%2Fetc%2Fpasswd":    ErrBadPath,
		"skill://pdf/link.txt":           ErrBadPath,
		"skill://pdf/missing.md":         ErrNotFound,
		"skill://nope":                   ErrNotFound,
		"skill://":                       ErrNotFound,
	}
	for u, want := range bad {
		if _, err := set.Resolve(u); !errors.Is(err, want) {
			t.Errorf("Resolve(%s) error = %v, want %v", u, err, want)
		}
	}
	content, _, err := set.Read("skill://pdf/references/tables.md")
	if err != nil || content != "tables" {
		t.Errorf("Read = %q, %v", content, err)
	}
}

func TestCommandMessage(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "git", FileName), skill("git", "git help"))
	set, _ := Discover(Options{Roots: []config.ResourceDir{{Path: dir, Provider: config.ProviderClaude, Level: config.LevelUser}}, Settings: allOn()})
	text, sk, err := set.CommandMessage("git", " rebase please ")
	if err != nil || sk.Name != "git" {
		t.Fatal(err)
	}
	if strings.Contains(text, "description:") || !strings.HasPrefix(text, "# git\nBody of git help") ||
		!strings.Contains(text, "Skill: "+filepath.Join(dir, "git", FileName)) || !strings.HasSuffix(text, "User: rebase please") {
		t.Errorf("message:\n%s", text)
	}
	if _, _, err := set.CommandMessage("nope", ""); err == nil {
		t.Error("unknown skill accepted")
	}
}
