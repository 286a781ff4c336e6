package plugins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".claude-plugin/plugin.json": `{"name":"kit","commands":["./cmds"],"skills":"./more-skills","lspServers":{"kitls":{"command":"${CLAUDE_PLUGIN_ROOT}/bin/ls","args":["--root","${OMP_PLUGIN_ROOT}"],"fileTypes":[".kit"]}}}`,
		".mcp.json":                  `{"srv":{"command":"./bin/server","args":["${CLAUDE_PLUGIN_ROOT}/data"],"env":{"ROOT":"${CLAUDE_PLUGIN_ROOT}"}},"remote":{"url":"https://example.com/mcp"},"empty":{}}`,
		"package.json":               `{"omp":{"extensions":["./src/main.ts","../outside.ts"]}}`,
		"src/main.ts":                "export default function () {}",
		"hooks/pre/bash.ts":          "export default function () {}",
		"hooks/readme.md":            "not a module",
		"cmds/x.md":                  "x",
	})
	c := Collect([]Root{{ID: ID{"kit", "m"}, Path: dir, Scope: ScopeUser}})
	// more-skills does not exist: only the conventional directory.
	if len(c.SkillDirs) != 1 || c.SkillDirs[0].Provider != config.ProviderPlugin {
		t.Errorf("skill dirs %+v", c.SkillDirs)
	}
	if len(c.CommandDirs) != 1 || c.CommandDirs[0].Path != filepath.Join(dir, "cmds") || c.CommandDirs[0].NamePrefix != "kit:" {
		t.Errorf("command dirs %+v", c.CommandDirs)
	}
	if len(c.MCPServers) != 2 {
		t.Fatalf("mcp %+v", c.MCPServers)
	}
	srv, remote := c.MCPServers[1], c.MCPServers[0]
	if srv.Name != "kit:srv" || srv.Command != filepath.Join(dir, "bin", "server") || srv.Args[0] != dir+"/data" || srv.Env["ROOT"] != dir || srv.Cwd != dir || srv.Type != config.MCPStdio {
		t.Errorf("srv %+v", srv)
	}
	if remote.Name != "kit:remote" || remote.Type != config.MCPHTTP {
		t.Errorf("remote %+v", remote)
	}
	if len(c.LSPFiles) != 1 || c.LSPFiles[0].Servers["kitls"]["command"] != dir+"/bin/ls" {
		t.Errorf("lsp %+v", c.LSPFiles)
	}
	want := []string{filepath.Join(dir, "src", "main.ts"), filepath.Join(dir, "hooks", "pre", "bash.ts")}
	if strings.Join(c.Extensions, ",") != strings.Join(want, ",") {
		t.Errorf("extensions %v", c.Extensions)
	}
	var msgs []string
	for _, w := range c.Warnings {
		msgs = append(msgs, w.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, w := range []string{`"../outside.ts" leads outside its directory`, `MCP server "empty"`} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings lack %q:\n%s", w, all)
		}
	}
}

// A plugin whose manifest is malformed contributes nothing, with a
// warning naming the file.
func TestCollectMalformedManifest(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".claude-plugin/plugin.json": `{"commands": "../../x"}`, "commands/a.md": "a"})
	c := Collect([]Root{{ID: ID{"bad", "m"}, Path: dir}})
	if len(c.CommandDirs) != 0 || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0].Error(), filepath.Join(dir, ".claude-plugin", "plugin.json")) {
		t.Fatalf("%+v %v", c.CommandDirs, c.Warnings)
	}
}

// --plugin-dir directories come first and take the manifest's name.
func TestRootsPluginDirs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".claude-plugin/plugin.json": `{"name":"named"}`})
	roots, errs := Roots(Sources{Layout: Layout{Root: t.TempDir()}}, []string{dir, filepath.Join(dir, "missing")})
	if len(roots) != 1 || roots[0].ID.Name != "named" || roots[0].Origin != OriginDir || len(errs) != 1 {
		t.Fatalf("%+v %v", roots, errs)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}

// omp's registries are read after gopi's: an omp install of a name gopi
// also has is shadowed.
func TestRootsReadOMPAfterGopi(t *testing.T) {
	gopi, omp := newManager(t), newManager(t)
	ctx := t.Context()
	dir := market(t, "shared", map[string]string{"both": "./both", "only-omp": "./only-omp"})
	for _, m := range []*Manager{gopi, omp} {
		if _, err := m.AddMarketplace(ctx, dir); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := gopi.Install(ctx, ID{"both", "shared"}, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"both", "only-omp"} {
		if _, err := omp.Install(ctx, ID{n, "shared"}, InstallOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	roots, errs := Roots(Sources{Layout: gopi.Layout, OMPLayout: omp.Layout}, nil)
	if len(errs) != 0 || len(roots) != 2 || roots[0].Origin != OriginGopi || roots[1].Origin != OriginOMP || roots[1].ID.Name != "only-omp" {
		t.Fatalf("%+v %v", roots, errs)
	}
}

// A project in the home directory: its .omp is omp's user root too, and
// that registry is read once.
func TestRootsProjectInHome(t *testing.T) {
	omp := newManager(t)
	ctx := t.Context()
	if _, err := omp.AddMarketplace(ctx, market(t, "mk", map[string]string{"one": "./one"})); err != nil {
		t.Fatal(err)
	}
	if _, err := omp.Install(ctx, ID{"one", "mk"}, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	list, errs := List(Sources{Layout: Layout{Root: t.TempDir()}, OMPLayout: omp.Layout, OMPProject: omp.Layout.Root})
	if len(list) != 1 || len(errs) != 0 {
		t.Fatalf("%+v %v", list, errs)
	}
}
