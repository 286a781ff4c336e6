package agentsession

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/plugins"
)

// A plugin's skills and commands come after the configured ones (a
// user's own of the same name wins), its language server files merge
// below the configured ones, and a configured MCP server hides a plugin's
// of the same name.
func TestSessionPluginContributions(t *testing.T) {
	f := newFixture(t, keyEnv)
	pdir := t.TempDir()
	for name, body := range map[string]string{
		"skills/tidy/SKILL.md": "---\ndescription: plugin tidy\n---\nplugin body\n",
		"skills/only/SKILL.md": "---\ndescription: only in the plugin\n---\nx\n",
		"commands/go.md":       "plugin go\n",
	} {
		p := filepath.Join(pdir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	own := filepath.Join(f.home, ".gopi", "agent", "skills", "tidy", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(own), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(own, []byte("---\ndescription: my own tidy\n---\nmine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := plugins.Collect([]plugins.Root{{ID: plugins.ID{Name: "kit", Marketplace: "m"}, Path: pdir, Scope: plugins.ScopeUser}})
	c.LSPFiles = []config.LSPFile{{Path: "plugin.lsp.json", Servers: map[string]map[string]any{"kitls": {"command": "kitls"}}}}
	s := f.open(Options{Plugins: c, NoMCP: true})
	got := map[string]string{}
	for _, sk := range s.Resources().Skills() {
		got[sk.Name] = sk.Description
	}
	if got["tidy"] != "my own tidy" || got["only"] != "only in the plugin" {
		t.Fatalf("skills %v", got)
	}
	found := false
	for _, tp := range s.Resources().Templates() {
		found = found || tp.Name == "kit:go"
	}
	if !found {
		t.Error("the plugin's command /kit:go is missing")
	}
	lsp := s.Tools().Env().Settings.LSPServers
	if lsp == nil || len(lsp.Files) == 0 || lsp.Files[0].Path != "plugin.lsp.json" {
		t.Fatalf("LSP files %+v", lsp)
	}
	servers := appendPluginServers([]*config.MCPServer{{Name: "kit:srv"}}, []*config.MCPServer{{Name: "kit:srv", Command: "other"}, {Name: "kit:new"}})
	if len(servers) != 2 || servers[0].Command != "" || servers[1].Name != "kit:new" {
		t.Fatalf("servers %+v", servers)
	}
}
