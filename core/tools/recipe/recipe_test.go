package recipe_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/recipe"
	"github.com/gopi-agent/gopi/core/tools/registry"
)

// project is a session in a temporary project directory whose PATH is
// bin (fakes) then the system's directories holding make and npm.
type project struct {
	t    *testing.T
	root string
	bin  string
	env  *tool.Env
}

func newProject(t *testing.T) *project {
	t.Helper()
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	p := &project{t: t, root: root, bin: t.TempDir()}
	p.env = tool.NewEnv(root)
	p.env.Settings.Shell.Path = "/bin/bash"
	p.env.Settings.Shell.Environ = []string{"PATH=" + p.bin + ":/usr/local/bin:/usr/bin:/bin", "HOME=" + t.TempDir(), "LC_ALL=C", shelltest.Mark(t)}
	p.env.Artifacts = artifact.NewStore(filepath.Join(t.TempDir(), "artifacts"))
	return p
}

func (p *project) write(name, content string) {
	p.t.Helper()
	path := filepath.Join(p.root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// fake puts a program on the project's PATH that prints out when its
// arguments are args, and fails otherwise.
func (p *project) fake(name, args, out string) {
	p.t.Helper()
	script := "#!/bin/sh\nif [ \"$*\" = '" + args + "' ]; then cat <<'EOF'\n" + out + "\nEOF\nelse echo \"" + name + " $*\"; fi\n"
	if err := os.WriteFile(filepath.Join(p.bin, name), []byte(script), 0o755); err != nil {
		p.t.Fatal(err)
	}
}

// services returns the session's services and the tools they offer.
func (p *project) services() (*registry.Services, map[string]tool.Tool) {
	p.t.Helper()
	svc := registry.NewServices(p.env)
	p.t.Cleanup(func() { svc.Close() })
	tools := map[string]tool.Tool{}
	for _, tl := range registry.All(p.env, svc) {
		tools[tl.Definition().Name] = tl
	}
	return svc, tools
}

// call runs the recipe tool on op.
func call(t *testing.T, tl tool.Tool, op string) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"op": op})
	res, err := tool.Run(context.Background(), tl, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A project with a makefile, a package.json with a workspace package, a
// justfile, a Taskfile and a Cargo.toml: every runner is found in omp's
// order, tasks run through bash (a workspace script in its package), an
// ambiguous name is refused, a failing task is an error with bash's text.
func TestRunnersAndRuns(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed (make setup installs it)")
	}
	p := newProject(t)
	p.write("Makefile", ".PHONY: hello fail test\nhello: ## Say hello\n\t@echo hello from make $(WHO)\nfail:\n\t@echo broken; exit 3\ntest:\n\t@echo make test\n")
	p.write("package.json", `{"name":"root","scripts":{"test":"echo npm test","greet":"echo hi from npm"},"workspaces":["packages/*"]}`)
	p.write("packages/web/package.json", `{"name":"web","scripts":{"where":"pwd"}}`)
	p.write("package-lock.json", "{}")
	p.write("justfile", "build:\n\techo build\n")
	p.write("Taskfile.yml", "version: '3'\n")
	p.write("Cargo.toml", "[package]\nname = \"demo\"\n")
	p.fake("just", "--dump --dump-format=json", `{"recipes":{"build":{"name":"build","doc":"Build it","private":false,"parameters":[{"name":"mode"}]}}}`)
	p.fake("task", "--list-all --json", `{"tasks":[{"name":"lint","desc":"Lint","summary":""}]}`)
	p.fake("cargo", "metadata --no-deps --format-version=1", `{"packages":[{"id":"demo","name":"demo","targets":[{"kind":["bin"],"name":"demo"}]}],"workspace_members":["demo"]}`)

	_, tools := p.services()
	tl := tools[recipe.Name]
	if tl == nil {
		t.Fatal("recipe not offered")
	}
	desc := tl.Definition().Description
	var ids []string
	for _, line := range strings.Split(desc, "\n") {
		if rest, ok := strings.CutPrefix(line, "<runner id=\""); ok {
			ids = append(ids, rest[:strings.IndexByte(rest, '"')])
		}
	}
	if got := strings.Join(ids, " "); got != "just pkg cargo make task" {
		t.Fatalf("runners %q\n%s", got, desc)
	}
	for _, want := range []string{"- `build mode` — Build it (`just build`)", "(`npm run 'greet'`)", "- `web/where` — packages/web (`npm run 'where'` in `packages/web`)",
		"- `bin/demo` — demo bin target demo (`cargo run --package 'demo' --bin 'demo'`)", "- `hello` — Say hello (`make hello`)", "- `lint` — Lint (`task lint`)"} {
		if !strings.Contains(desc, want) {
			t.Errorf("description lacks %q:\n%s", want, desc)
		}
	}

	if res := call(t, tl, "hello WHO=world"); res.IsError || strings.TrimSpace(res.FirstText()) != "hello from make world" {
		t.Errorf("make hello: %+v %q", res.IsError, res.FirstText())
	}
	t.Run("npm", func(t *testing.T) {
		if _, err := exec.LookPath("npm"); err != nil {
			t.Skip("npm is not installed (apt-get install npm): package.json scripts are listed but not run")
		}
		if res := call(t, tl, "greet"); res.IsError || !strings.Contains(res.FirstText(), "hi from npm") {
			t.Errorf("npm greet: %+v %q", res.IsError, res.FirstText())
		}
		if res := call(t, tl, "web/where"); res.IsError || !strings.Contains(res.FirstText(), filepath.Join(p.root, "packages", "web")) {
			t.Errorf("workspace script ran elsewhere: %q", res.FirstText())
		}
	})
	if res := call(t, tl, "task:lint --fast"); res.IsError || strings.TrimSpace(res.FirstText()) != "task lint --fast" {
		t.Errorf("task lint: %+v %q", res.IsError, res.FirstText())
	}
	if res := call(t, tl, "test"); !res.IsError || !strings.Contains(res.FirstText(), "exists in multiple runners (pkg, make)") {
		t.Errorf("ambiguous test: %q", res.FirstText())
	}
	if res := call(t, tl, "make:test"); res.IsError || strings.TrimSpace(res.FirstText()) != "make test" {
		t.Errorf("make:test: %q", res.FirstText())
	}
	res := call(t, tl, "fail")
	if !res.IsError || !strings.Contains(res.FirstText(), "broken") || !strings.Contains(res.FirstText(), "Command exited with code 2") {
		t.Errorf("failing task: %+v %q", res.IsError, res.FirstText())
	}
	access := tool.CallAccess(tl, tool.Args{"op": "web/where -x"})
	if access.Tool != "bash" || !access.Writes || access.Summary != "$ npm run 'where' -x\n(in packages/web)" {
		t.Errorf("access %+v", access)
	}
}

// recipe is left out without runners, with recipe.enabled off, and when
// the runners' programs are missing (a justfile without just).
func TestOfferedOnlyWithTasks(t *testing.T) {
	p := newProject(t)
	if _, tools := p.services(); tools[recipe.Name] != nil {
		t.Fatal("offered in an empty project")
	}
	p.write("justfile", "build:\n\techo build\n")
	p.write("package.json", `{"scripts":{}}`)
	if _, tools := p.services(); tools[recipe.Name] != nil {
		t.Fatal("offered without just on PATH and without scripts")
	}
	p.write("package.json", `{"scripts":{"x":"true"}}`)
	if _, tools := p.services(); tools[recipe.Name] == nil {
		t.Fatal("not offered with a script")
	}
	p.env.Settings.RecipeEnabled = false
	if _, tools := p.services(); tools[recipe.Name] != nil {
		t.Fatal("offered with recipe.enabled off")
	}
}

// The package manager follows the lockfile, as omp's does.
func TestPackageManager(t *testing.T) {
	for lock, want := range map[string]string{"bun.lockb": "bun run", "pnpm-lock.yaml": "pnpm run", "yarn.lock": "yarn", "npm-shrinkwrap.json": "npm run", "": "npm run"} {
		p := newProject(t)
		p.write("package.json", `{"scripts":{"x":"true"}}`)
		if lock != "" {
			p.write(lock, "")
		}
		rs := recipe.Detect(context.Background(), recipe.Probe{Root: p.root, Environ: p.env.Settings.Shell.Environ})
		if len(rs) != 1 || rs[0].Prefix != want {
			t.Errorf("%s: %+v", lock, rs)
		}
	}
	p := newProject(t)
	p.write("package.json", `{"scripts":{"x":"true"}}`)
	p.fake("bun", "", "")
	if rs := recipe.Detect(context.Background(), recipe.Probe{Root: p.root, Environ: p.env.Settings.Shell.Environ}); len(rs) != 1 || rs[0].Prefix != "bun run" {
		t.Errorf("bun on PATH: %+v", rs)
	}
}

// A package.json or makefile that is a named pipe is skipped without
// being opened (an open would block until a writer comes); the other
// runners are still found.
func TestNamedPipesSkipped(t *testing.T) {
	p := newProject(t)
	p.fake("make", "", "")
	for _, name := range []string{"package.json", "Makefile"} {
		if err := syscall.Mkfifo(filepath.Join(p.root, filepath.FromSlash(name)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if rs := recipe.Detect(context.Background(), recipe.Probe{Root: p.root, Environ: p.env.Settings.Shell.Environ}); len(rs) != 0 {
		t.Fatalf("runners from named pipes: %+v", rs)
	}
	p.write("makefile", "build:\n\techo build\n") // the first regular one of make's names
	if rs := recipe.Detect(context.Background(), recipe.Probe{Root: p.root, Environ: p.env.Settings.Shell.Environ}); len(rs) != 1 || rs[0].Prefix != "make" {
		t.Fatalf("runners: %+v", rs)
	}
}
