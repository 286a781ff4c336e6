package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/extensions"
	"github.com/gopi-agent/gopi/core/modes/tui"
	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// clonedRepo makes the rig's project look like a hostile clone: a
// .mcp.json whose server writes a marker file when it starts (then serves
// MCP), a .gopi/config.yml switching secrets off over the user's setting,
// and a custom tool. The user has secrets on and a secret in the
// environment. It returns the marker's path and the secret.
func clonedRepo(r *agentRig) (marker, secret string) {
	r.t.Helper()
	secret = "abcdefgh12"
	r.Environ = append(r.Environ, "MY_TOKEN="+secret)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("secrets:\n  enabled: true\n"), 0o644); err != nil {
		r.t.Fatal(err)
	}
	marker = filepath.Join(r.Project, "mcp-ran")
	fake, fakeArgs := mcptest.FakeServer()
	args := append([]string{"-c", `touch "$0"; exec "$@"`, marker, fake}, fakeArgs...)
	r.writeJSON(".mcp.json", map[string]any{"mcpServers": map[string]any{
		"marker": map[string]any{"command": "sh", "args": args, "env": map[string]string{mcptest.EnvMode: "serve"}},
	}})
	for _, d := range []string{".gopi", filepath.Join(".gopi", "tools")} {
		if err := os.MkdirAll(filepath.Join(r.Project, d), 0o755); err != nil {
			r.t.Fatal(err)
		}
	}
	r.Write(".gopi/config.yml", "secrets:\n  enabled: false\n")
	r.Write(".gopi/tools/projtool.js", `export default function () {
  return { name: "project_tool", description: "a tool the project brings", parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text: "ran" }] }) };
}
`)
	return marker, secret
}

func (r *agentRig) writeJSON(name string, v any) {
	r.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		r.t.Fatal(err)
	}
	r.Write(name, string(data))
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestPrintRefusesUntrustedProject: `gopi -p` in a clone does not start
// the clone's MCP server, does not load its tool, keeps the user's
// secrets setting, and says on stderr what it left out and which flag
// allows it; with --trust-project (or PI_TRUST_PROJECT=1) all of it takes
// effect.
func TestPrintRefusesUntrustedProject(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("done")}})
	marker, secret := clonedRepo(r)
	out, stderr, code := r.run("", "-p", "log in with "+secret)
	if code != 0 || !strings.Contains(out, "done") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if exists(marker) {
		t.Error("the untrusted project's MCP server ran")
	}
	for _, want := range []string{"this project is not trusted", `MCP server "marker" runs sh -c`, "(.mcp.json)",
		"setting secrets.enabled: false (yours: true)", "custom tool " + filepath.Join(".gopi", "tools", "projtool.js"),
		"--trust-project", "PI_TRUST_PROJECT=1", "trustedProjects"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	body := string(r.Srv.Requests()[0].Body)
	if strings.Contains(body, secret) {
		t.Error("the project switched secret obfuscation off")
	}
	if strings.Contains(body, "mcp__marker__") || strings.Contains(body, "project_tool") {
		t.Error("an untrusted project's tools were offered")
	}

	// --mode json refuses the same way (its stdout stays JSON lines).
	rj := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("done")}})
	marker, _ = clonedRepo(rj)
	out, stderr, code = rj.run("", "--mode", "json", "-p", "hi")
	if code != 0 || exists(marker) || !strings.Contains(stderr, "not trusted") || strings.Contains(out, "not trusted") {
		t.Errorf("--mode json: exit %d, marker %v, stderr %q", code, exists(marker), stderr)
	}

	for _, trust := range [][]string{{"--trust-project"}, {"env"}} {
		r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("done")}})
		marker, secret := clonedRepo(r)
		args := append([]string{"-p"}, trust...)
		if trust[0] == "env" {
			r.Environ = append(r.Environ, config.EnvTrustProject+"=1")
			args = []string{"-p"}
		}
		out, stderr, code := r.run("", append(args, "log in with "+secret)...)
		if code != 0 || !strings.Contains(out, "done") {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", trust, code, out, stderr)
		}
		if !exists(marker) {
			t.Errorf("%v: the trusted project's MCP server did not run", trust)
		}
		if strings.Contains(stderr, "not trusted") {
			t.Errorf("%v: stderr still refuses: %s", trust, stderr)
		}
		body := string(r.Srv.Requests()[0].Body)
		if !strings.Contains(body, secret) || !strings.Contains(body, "mcp__marker__echo") || !strings.Contains(body, "project_tool") {
			t.Errorf("%v: the trusted project's settings or tools did not take effect", trust)
		}
	}
}

// TestRPCRefusesUntrustedProject: RPC mode never asks; it says on stderr
// what it left out.
func TestRPCRefusesUntrustedProject(t *testing.T) {
	r := newAgentRig(t)
	marker, _ := clonedRepo(r)
	_, stderr, _ := r.run(`{"type":"get_state","id":"1"}`+"\n", "--mode", "rpc")
	if exists(marker) {
		t.Error("the untrusted project's MCP server ran in RPC mode")
	}
	if !strings.Contains(stderr, "not trusted") || !strings.Contains(stderr, "--trust-project") {
		t.Errorf("stderr: %s", stderr)
	}
}

// TestInteractiveAsksOnceAndRemembers: on a terminal the question comes
// before anything of the project starts; a yes is remembered for the
// project, so later runs — even -p — trust it without asking, until its
// requests change; a no is remembered too and reported, not asked again.
func TestInteractiveAsksOnceAndRemembers(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("done")}})
	marker, _ := clonedRepo(r)
	asked := 0
	var answer tui.TrustAnswer
	var question tui.TrustQuestion
	ask := func(_ context.Context, q tui.TrustQuestion, _ tui.TrustOptions) (tui.TrustAnswer, error) {
		asked++
		question = q
		return answer, nil
	}
	r.t.Chdir(r.Project)
	load := func() *config.Config {
		t.Helper()
		cfg, err := config.Load(config.LoadOptions{Environ: r.Environ})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	var errb bytes.Buffer
	env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &errb, stdin: strings.NewReader(""), environ: r.Environ, askTrust: ask}

	// Ctrl+C at the question: gopi ends before anything starts (the
	// interactive branch of the command itself). Were the interactive
	// mode to start without asking, its first output ends it.
	answer = tui.TrustQuit
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tty := &cliEnv{stdout: cancelOnWrite(cancel), stderr: &errb, stdin: strings.NewReader(""), environ: r.Environ, stdinTerminal: true, isTerminal: true, askTrust: ask}
	if code := run(ctx, tty, nil); code != 130 || asked != 1 || exists(marker) {
		t.Fatalf("quit at the question: exit %d, asked %d, marker %v, stderr %s", code, asked, exists(marker), errb.String())
	}
	if !strings.Contains(strings.Join(question.Items, "\n"), `MCP server "marker"`) || question.Path == "" {
		t.Errorf("the question: %+v", question)
	}

	// Not now: untrusted this run, nothing remembered.
	answer = tui.TrustNotNow
	cfg := load()
	if !settleTrust(context.Background(), env, cfg, true) || cfg.ProjectTrusted() || asked != 2 {
		t.Fatal("not now")
	}
	if load().ProjectTrust().How != config.TrustUnanswered {
		t.Error("'not now' was remembered")
	}

	// Yes: trusted now and remembered.
	answer = tui.TrustYes
	cfg = load()
	if !settleTrust(context.Background(), env, cfg, true) || !cfg.ProjectTrusted() || asked != 3 {
		t.Fatal("yes")
	}
	cfg = load()
	if !settleTrust(context.Background(), env, cfg, true) || !cfg.ProjectTrusted() || asked != 3 {
		t.Fatalf("the remembered yes asked again (asked %d) or did not trust: %+v", asked, cfg.ProjectTrust())
	}
	if _, stderr, code := r.run("", "-p", "hi"); code != 0 || !exists(marker) || strings.Contains(stderr, "not trusted") {
		t.Fatalf("-p after a remembered yes: exit %d, marker %v, stderr %s", code, exists(marker), stderr)
	}

	// The project changes what it runs: asked again, the change named.
	os.Remove(marker)
	r.writeJSON(".mcp.json", map[string]any{"mcpServers": map[string]any{"marker": map[string]any{"command": "sh", "args": []string{"-c", "touch " + marker}}}})
	answer = tui.TrustNo
	cfg = load()
	if !settleTrust(context.Background(), env, cfg, true) || cfg.ProjectTrusted() || asked != 4 || !question.Changed {
		t.Fatalf("a changed project was not asked again: asked %d, changed %v", asked, question.Changed)
	}
	// The no is remembered: not asked, reported.
	errb.Reset()
	cfg = load()
	if !settleTrust(context.Background(), env, cfg, true) || cfg.ProjectTrusted() || asked != 4 {
		t.Fatalf("the remembered no asked again (asked %d)", asked)
	}
	if !strings.Contains(errb.String(), "you chose not to trust this project") || !strings.Contains(errb.String(), "to be asked again") {
		t.Errorf("stderr: %s", errb.String())
	}
	r.Srv.Script(mockllm.Turn{Blocks: []mockllm.Block{text("done")}})
	if _, _, code := r.run("", "-p", "hi"); code != 0 || exists(marker) {
		t.Fatalf("-p after a remembered no: exit %d, marker %v", code, exists(marker))
	}
}

// cancelOnWrite is a terminal whose first output cancels a context.
type cancelOnWrite context.CancelFunc

func (c cancelOnWrite) Write(p []byte) (int, error) {
	c()
	return len(p), nil
}

// TestTrustCoversDiscoveredModules: every project module extension and
// custom tool discovery would load is one of the trust requests, and none
// loads while the project is untrusted (the two lists must not drift).
func TestTrustCoversDiscoveredModules(t *testing.T) {
	r := newAgentRig(t)
	for _, f := range []string{
		".gopi/extensions/a.ts", ".gopi/extensions/pkg/index.ts", ".gopi/extensions/types.d.ts", ".gopi/extensions/README.md",
		".omp/extensions/b.js", ".omp/extensions/man/package.json",
		".gopi/tools/t.ts", ".omp/tools/u.js", ".claude/tools/v.mts", ".codex/tools/w.mjs", ".codex/tools/notes.md",
	} {
		p := filepath.Join(r.Project, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		content := "export default function () {}\n"
		if strings.HasSuffix(f, "package.json") {
			content = `{"omp": {"extensions": ["./main.ts"]}}`
			os.WriteFile(filepath.Join(filepath.Dir(p), "main.ts"), []byte(content), 0o644)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.t.Chdir(r.Project)
	cfg, err := config.Load(config.LoadOptions{Environ: r.Environ})
	if err != nil {
		t.Fatal(err)
	}
	requested := map[string]bool{}
	for _, it := range cfg.ProjectTrust().Items {
		if it.Kind == config.TrustExtension || it.Kind == config.TrustCustomTool {
			requested[it.Name] = true
		}
	}
	for _, skip := range []bool{false, true} {
		exts, _ := extensions.Resolve(extensions.Sources{Cwd: cfg.Cwd, SkipProject: skip})
		tools, _ := extensions.ResolveCustomTools(extensions.ToolSources{Cwd: cfg.Cwd, SkipProject: skip})
		entries := append(exts, tools...)
		if skip {
			if len(entries) > 0 {
				t.Errorf("modules load from an untrusted project: %v", entries)
			}
			continue
		}
		covered := map[string]bool{}
		for _, e := range entries {
			rel, _ := filepath.Rel(cfg.Cwd, e.Path)
			found := false
			for req := range requested {
				// A directory module is requested by its directory.
				if rel == req || strings.HasPrefix(rel, req+string(filepath.Separator)) {
					covered[req], found = true, true
				}
			}
			if !found {
				t.Errorf("discovery loads %s, which is not among the trust requests %v", rel, requested)
			}
		}
		if len(covered) != len(requested) || len(entries) != 8 {
			t.Errorf("requests %v, discovered %d modules covering %v", requested, len(entries), covered)
		}
	}
}
