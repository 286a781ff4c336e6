package geminiext

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Discovery: direct children only, hidden directories included, user
// before project with the user's winning a shared name, the directory's
// name when the manifest has none, Gemini's server shapes and variables,
// context files inside the extension only, and a warning for bad JSON.
func TestDiscover(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".gemini", "extensions")
	proj := filepath.Join(cwd, ".gemini", "extensions")
	write(t, filepath.Join(user, "a", ManifestFile), `{"name":"shared","mcpServers":{
		"local":{"command":"${extensionPath}${/}run.sh","args":["${extensionPath}/x"]},
		"remote":{"httpUrl":"http://127.0.0.1:1/mcp"},
		"old":{"url":"http://127.0.0.1:1/sse"},
		"bad name!":{"command":"x"}},
		"contextFileName":["CTX.md","../../escape.md","missing.md"],
		"excludeTools":["glob", 3, " "]}`)
	write(t, filepath.Join(user, "a", "CTX.md"), "context")
	write(t, filepath.Join(user, "escape.md"), "outside")
	write(t, filepath.Join(user, ".hidden", ManifestFile), `{"description":"no name"}`)
	write(t, filepath.Join(user, ".hidden", DefaultContextFile), "default context")
	write(t, filepath.Join(user, "deep", "nested", ManifestFile), `{"name":"too deep"}`)
	write(t, filepath.Join(user, "odd", ManifestFile), `{"name":42,"mcpServers":"not an object"}`)
	write(t, filepath.Join(proj, "b", ManifestFile), `{"name":"shared"}`)
	write(t, filepath.Join(proj, "c", ManifestFile), `{"name":"projected"`)
	write(t, filepath.Join(proj, "d", ManifestFile), `{"name":"mine"}`)

	set := Discover(home, cwd, true)
	var names []string
	for _, e := range set.Extensions {
		names = append(names, e.Name+":"+string(e.Level))
	}
	if want := []string{".hidden:user", "shared:user", "42:user", "mine:project"}; !slices.Equal(names, want) {
		t.Fatalf("extensions %v, want %v", names, want)
	}
	a := set.Extensions[1]
	if len(a.Servers) != 3 {
		t.Fatalf("servers %+v", a.Servers)
	}
	byName := map[string]*config.MCPServer{}
	for _, s := range a.Servers {
		byName[s.Name] = s
	}
	dir := filepath.Join(user, "a")
	if s := byName["local"]; s.Type != config.MCPStdio || s.Command != dir+"/run.sh" || s.Args[0] != dir+"/x" || s.Cwd != dir {
		t.Errorf("stdio server %+v", s)
	}
	if byName["remote"].Type != config.MCPHTTP || byName["old"].Type != config.MCPSSE {
		t.Errorf("transports: %q %q", byName["remote"].Type, byName["old"].Type)
	}
	if !slices.Equal(a.ContextFiles, []string{filepath.Join(dir, "CTX.md")}) {
		t.Errorf("context files %v", a.ContextFiles)
	}
	if !slices.Equal(set.Extensions[0].ContextFiles, []string{filepath.Join(user, ".hidden", DefaultContextFile)}) {
		t.Errorf("default context file %v", set.Extensions[0].ContextFiles)
	}
	joined := strings.Join(set.Warnings, "\n")
	if !strings.Contains(joined, "Invalid JSON in "+filepath.Join(proj, "c", ManifestFile)) || !strings.Contains(joined, `"bad name!"`) {
		t.Errorf("warnings:\n%s", joined)
	}
	ex, _ := set.Exclusions()
	if !ex.Excludes("find", "") || !ex.Excludes("x", "glob") || ex.Excludes("bash", "") {
		t.Error("exclusions wrong")
	}
	if got := Discover(home, cwd, false); len(got.Extensions) != 3 {
		t.Errorf("without the project: %d extensions", len(got.Extensions))
	}
}

// FuzzLoad: any manifest text loads or is skipped, never panics, and a
// loaded one has a name and only servers that pass validation.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"name":null}`, `{"name":"x","mcpServers":{"s":{"command":"c"}}}`,
		`{"mcpServers":{"s":{"httpUrl":"http://h"},"t":{"url":"u","command":"c"}}}`,
		`{"contextFileName":["a","../b"],"excludeTools":["run_shell_command(ls)",null]}`,
		`[1,2]`, `"str"`, `{"contextFileName":7}`,
	} {
		f.Add(seed)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		write(t, filepath.Join(dir, ManifestFile), text)
		ext, _, ok := load(dir, LevelUser)
		if !ok {
			return
		}
		if ext.Name == "" && !strings.Contains(text, `"name"`) {
			t.Fatalf("no name for %q", text)
		}
		for _, s := range ext.Servers {
			if err := config.ValidateMCPServer(s.Name, s.Type, s.Command, s.URL); err != nil {
				t.Fatalf("invalid server kept: %v", err)
			}
		}
	})
}
