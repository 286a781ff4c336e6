package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// makeMarketplaceRepo builds a marketplace as a Git repository (git
// init, commit) whose plugin "demo" has a skill, a command, a hook module
// and an MCP server (the test binary as the fake server); it returns the
// repository's file:// URL.
func makeMarketplaceRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := filepath.Join(t.TempDir(), "market")
	fake, fakeArgs := mcptest.FakeServer()
	mcp, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"echo": map[string]any{"command": fake, "args": fakeArgs, "env": map[string]string{mcptest.EnvMode: "serve", "PLUGIN_HOME": "${CLAUDE_PLUGIN_ROOT}"}},
	}})
	files := map[string]string{
		".claude-plugin/marketplace.json": `{"name":"demo-market","owner":{"name":"Tests"},"plugins":[
			{"name":"demo","source":"./plugins/demo","description":"a plugin of every kind","version":"1.2.0"}]}`,
		"plugins/demo/.claude-plugin/plugin.json": `{"name":"demo","description":"demo plugin"}`,
		"plugins/demo/skills/hello/SKILL.md":      "---\nname: hello\ndescription: Greets people in the demo style\n---\nAlways greet with the words DEMO-GREETING.\n",
		"plugins/demo/commands/greet.md":          "---\ndescription: greet someone\n---\nPlease greet $1 warmly.\n",
		"plugins/demo/hooks/guard.ts": `export default function (pi) {
	pi.on("tool_call", async (event) => {
		if (event.toolName === "bash" && String(event.input.command).includes("forbidden")) {
			return { block: true, reason: "blocked by the demo plugin's hook" };
		}
	});
}
`,
		"plugins/demo/.mcp.json":        string(mcp),
		"plugins/demo/hooks/hooks.json": `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/no-rm.sh"}]}]}}`,
		"plugins/demo/hooks/no-rm.sh":   "#!/bin/sh\nif grep -q 'rm -rf'; then echo 'the demo plugin refuses rm -rf' >&2; exit 2; fi\nexit 0\n",
	}
	for name, body := range files {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "market"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return "file://" + repo
}

// TestPluginFromGitMarketplaceThroughModel is issue 40's done-when: a
// marketplace made from a local Git repository installs a plugin whose
// skill, command, hook and MCP server all work through the mock LLM;
// disabled, the plugin contributes nothing; uninstalled, its files go.
func TestPluginFromGitMarketplaceThroughModel(t *testing.T) {
	url := makeMarketplaceRepo(t)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("read", `{"path":"skill://hello"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"echo forbidden"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"rm -rf /nonexistent-dir"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("mcp__demo_echo__echo", `{"text":"ping"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("all done")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("plain")}},
	)
	for _, args := range [][]string{
		{"plugin", "marketplace", "add", url},
		{"plugin", "install", "demo@demo-market"},
	} {
		if out, stderr, code := r.run("", args...); code != 0 {
			t.Fatalf("%v: exit %d %q %q", args, code, out, stderr)
		}
	}
	out, _, _ := r.run("", "plugin", "list")
	if !strings.Contains(out, "demo@demo-market v1.2.0  user scope, enabled") {
		t.Fatalf("plugin list: %q", out)
	}

	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "/demo:greet Bob")
	if code != 0 || !strings.Contains(out, "all done") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests; stderr %s", len(reqs), stderr)
	}
	first := string(reqs[0].Body)
	for _, want := range []string{"Please greet Bob warmly.", "Greets people in the demo style", `"name":"mcp__demo_echo__echo"`} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request lacks %q", want)
		}
	}
	if !strings.Contains(string(reqs[1].Body), "Always greet with the words DEMO-GREETING.") {
		t.Error("reading skill://hello did not give the plugin's skill")
	}
	if !strings.Contains(string(reqs[2].Body), "blocked by the demo plugin's hook") {
		t.Errorf("the plugin's hook did not block the call")
	}
	if !strings.Contains(string(reqs[3].Body), "the demo plugin refuses rm -rf") {
		t.Errorf("the plugin's hooks.json command hook did not block the call")
	}
	if !strings.Contains(string(reqs[4].Body), "echo: ping") {
		t.Errorf("the plugin's MCP server did not answer")
	}

	// Disabled, the plugin contributes nothing.
	if _, stderr, code := r.run("", "plugin", "disable", "demo@demo-market"); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := r.run("", "-p", "/demo:greet Ann"); code != 0 {
		t.Fatal(stderr)
	}
	last := string(r.Srv.Requests()[5].Body)
	for _, gone := range []string{"Please greet Ann warmly.", "Greets people in the demo style", "mcp__demo_echo__echo"} {
		if strings.Contains(last, gone) {
			t.Errorf("a disabled plugin still contributed %q", gone)
		}
	}

	// Uninstalled, its files are gone.
	out, _, _ = r.run("", "plugin", "list", "--json")
	var list []struct{ Install struct{ InstallPath string } }
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("plugin list --json: %q %v", out, err)
	}
	if _, stderr, code := r.run("", "plugin", "uninstall", "demo@demo-market"); code != 0 {
		t.Fatal(stderr)
	}
	if _, err := os.Stat(list[0].Install.InstallPath); !os.IsNotExist(err) {
		t.Errorf("the uninstalled plugin's directory is still there: %v", err)
	}
}

// TestPluginDirFlag: --plugin-dir loads a plugin's command for one run.
func TestPluginDirFlag(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("ok")}})
	dir := filepath.Join(t.TempDir(), "local-plugin")
	if err := os.MkdirAll(filepath.Join(dir, "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "commands", "shout.md"), []byte("SHOUT $1 LOUDLY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--plugin-dir", dir, "/local-plugin:shout hey"); code != 0 {
		t.Fatal(stderr)
	}
	if body := string(r.Srv.Requests()[0].Body); !strings.Contains(body, "SHOUT hey LOUDLY") {
		t.Errorf("the --plugin-dir command was not expanded")
	}
}

// TestTUIMarketplaceInTmux: /marketplace add reads a local marketplace,
// /marketplace opens the browser, Enter installs the chosen plugin, and
// /marketplace installed lists it.
func TestTUIMarketplaceInTmux(t *testing.T) {
	r := newAgentRig(t)
	dir := filepath.Join(t.TempDir(), "shop")
	writeTree(t, dir, map[string]string{
		".claude-plugin/marketplace.json": `{"name":"shop","owner":{"name":"t"},"plugins":[
			{"name":"widgets","source":"./widgets","description":"makes widgets"},
			{"name":"gadgets","source":"./gadgets","description":"makes gadgets"}]}`,
		"widgets/commands/w.md": "widget\n",
		"gadgets/commands/g.md": "gadget\n",
	})
	x := startTmux(t, 120, 40, r.Project, r.Environ, "--no-title")
	x.waitFor("Message gopi")
	x.typ("/marketplace add " + dir)
	x.keys("Enter")
	x.waitFor("Added marketplace shop")
	x.typ("/marketplace")
	x.keys("Enter")
	x.waitFor("makes gadgets")
	x.typ("widg")
	x.keys("Enter")
	x.waitFor("Installed widgets@shop")
	x.typ("/marketplace installed")
	x.keys("Enter")
	x.waitFor("widgets@shop (no version)  user scope, enabled")
}

// writeTree writes name → content below dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOMPInstalledPluginsLoad: a plugin omp installed (its registry in
// ~/.omp/plugins, in omp's layout) contributes to gopi's sessions.
func TestOMPInstalledPluginsLoad(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("ok")}})
	dir := filepath.Join(r.Home, ".omp", "plugins", "cache", "plugins", "their-mk___omp-kit___2.0.0")
	writeTree(t, dir, map[string]string{"commands/hi.md": "HELLO FROM OMP $1\n"})
	reg, _ := json.Marshal(map[string]any{"version": 2, "plugins": map[string]any{"omp-kit@their-mk": []map[string]any{
		{"scope": "user", "installPath": dir, "version": "2.0.0", "installedAt": "2026-01-01T00:00:00.000Z", "lastUpdated": "2026-01-01T00:00:00.000Z"},
	}}})
	writeTree(t, filepath.Join(r.Home, ".omp", "plugins"), map[string]string{"installed_plugins.json": string(reg)})
	out, _, _ := r.run("", "plugin", "list")
	if !strings.Contains(out, "omp-kit@their-mk v2.0.0  user scope, enabled, from omp") {
		t.Fatalf("plugin list: %q", out)
	}
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "/omp-kit:hi there"); code != 0 {
		t.Fatal(stderr)
	}
	if body := string(r.Srv.Requests()[0].Body); !strings.Contains(body, "HELLO FROM OMP there") {
		t.Error("the omp-installed plugin's command was not expanded")
	}
}
