package recipe

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/golden"
)

// twoRunners are a package.json with test and build and a makefile with
// test and lint: "test" is ambiguous.
func twoRunners() []*Runner {
	return []*Runner{
		{ID: RunnerPkg, Label: "Pkg", Prefix: "npm run", Tasks: []Task{
			{Name: "test", Command: "'test'"}, {Name: "build", Command: "'build'"},
			{Name: "web/dev", Doc: "packages/web", Command: "'dev'", Dir: "packages/web"},
		}},
		{ID: RunnerMake, Label: "Make", Prefix: "make", Tasks: []Task{{Name: "test", Doc: "run the tests"}, {Name: "lint"}}},
	}
}

func TestResolve(t *testing.T) {
	runners := twoRunners()
	for _, c := range []struct{ op, command, dir string }{
		{"build", "npm run 'build'", ""},
		{"  build   --watch  now ", "npm run 'build' --watch  now", ""},
		{"pkg:test", "npm run 'test'", ""},
		{"make:test -j4", "make test -j4", ""},
		{"lint", "make lint", ""},
		{"web/dev --port 3000", "npm run 'dev' --port 3000", "packages/web"},
		{"build\n--flag", "npm run 'build' --flag", ""},
	} {
		r, err := Resolve(c.op, runners)
		if err != nil || r.Command != c.command || r.Dir != c.dir {
			t.Errorf("Resolve(%q) = %q in %q, %v; want %q in %q", c.op, r.Command, r.Dir, err, c.command, c.dir)
		}
	}
}

// The errors for an empty op, an ambiguous, unknown or missing task, as
// the model sees them.
func TestResolveErrors(t *testing.T) {
	var b strings.Builder
	for _, op := range []string{"", "   ", "test", "deploy --now", "make:", "make:build", "nope:test"} {
		_, err := Resolve(op, twoRunners())
		if err == nil {
			t.Fatalf("Resolve(%q) succeeded", op)
		}
		fmt.Fprintf(&b, "## op %q\n%s\n\n", op, err)
	}
	golden.Check(t, filepath.Join("testdata", "errors.golden"), b.String())
}

// The description lists at most PromptTaskLimit tasks per runner, with
// their parameters, documentation, command and directory.
func TestDescription(t *testing.T) {
	runners := twoRunners()
	just := &Runner{ID: RunnerJust, Label: "Just", Prefix: "just"}
	for i := range 25 {
		just.Tasks = append(just.Tasks, Task{Name: fmt.Sprintf("r%02d", i)})
	}
	just.Tasks[0].Params = []string{"target", "mode"}
	just.Tasks[1].Doc = "build everything"
	runners = append([]*Runner{just}, runners...)
	got := Description(runners)
	if strings.Contains(got, "r20") || !strings.Contains(got, "r19") {
		t.Fatalf("not cut at %d tasks:\n%s", PromptTaskLimit, got)
	}
	golden.Check(t, filepath.Join("testdata", "description.golden"), got)
	one := Description(runners[2:])
	if strings.Contains(one, "runner id in front") {
		t.Fatalf("one runner, yet the prefix rule is listed:\n%s", one)
	}
	golden.Check(t, filepath.Join("testdata", "description-one.golden"), one)
}

func TestParseMakefile(t *testing.T) {
	withPhony := "CC := gcc\nVERSION ?= 1\n.PHONY: build test clean\nbuild: deps ## Build it\n\tgo build\n" +
		"test: ## Run tests\n\tgo test\noutbin: src.c ## The binary\nother.o: x\nbuild: again\r\n"
	got := show(ParseMakefile(withPhony))
	want := "build|Build it; test|Run tests; outbin|The binary (file target); clean|"
	if got != want {
		t.Errorf("with .PHONY:\n got %s\nwant %s", got, want)
	}
	plain := "all: a b\r\na: ## first\r\nb:\n\t@echo b\nX = 1\nY::=2\n"
	got = show(ParseMakefile(plain))
	want = "all|; a|first; b|; Y|"
	if got != want {
		t.Errorf("without .PHONY:\n got %s\nwant %s", got, want)
	}
}

func TestParseDumps(t *testing.T) {
	just := `{"recipes":{"zeta":{"name":"zeta","doc":null,"private":false,"parameters":[]},` +
		`"alpha":{"name":"alpha","doc":"first one","private":false,"parameters":[{"name":"target"},{"name":""}]},` +
		`"_hidden":{"name":"_hidden","private":true}}}`
	tasks, ok := ParseJustDump([]byte(just))
	if got := show(tasks); !ok || got != "zeta|; alpha|first one|target" {
		t.Errorf("just: %s %v", got, ok)
	}
	if _, ok := ParseJustDump([]byte("error: no justfile")); ok {
		t.Error("just: garbage accepted")
	}
	task := `{"tasks":[{"name":"build","desc":"Build","summary":"long"},{"name":"lint","desc":"","summary":"Lint all"},{"name":""}]}`
	tasks, ok = ParseTaskList([]byte(task))
	if got := show(tasks); !ok || got != "build|Build; lint|Lint all" {
		t.Errorf("task: %s %v", got, ok)
	}
	cargo := `{"packages":[{"id":"a 0.1","name":"a","targets":[{"kind":["bin"],"name":"a"},{"kind":["lib"],"name":"a"},` +
		`{"kind":["example"],"name":"demo"},{"kind":["test"],"name":"it"}]},{"id":"dep","name":"dep","targets":[{"kind":["bin"],"name":"x"}]}],` +
		`"workspace_members":["a 0.1"]}`
	tasks, ok = ParseCargoMetadata([]byte(cargo))
	var lines []string
	for _, t := range tasks {
		lines = append(lines, t.Name+" = "+(&Runner{Prefix: "cargo"}).command(&t))
	}
	if got := strings.Join(lines, "\n"); !ok || got != "bin/a = cargo run --package 'a' --bin 'a'\nexample/demo = cargo run --package 'a' --example 'demo'\ntest/it = cargo test --package 'a' --test 'it'" {
		t.Errorf("cargo:\n%s", got)
	}
	ws := `{"packages":[{"id":"a","name":"a","targets":[{"kind":["bin"],"name":"srv"}]},{"id":"b","name":"b","targets":[{"kind":["bin"],"name":"srv"}]}],"workspace_members":["a","b"]}`
	tasks, _ = ParseCargoMetadata([]byte(ws))
	if got := fmt.Sprint(len(tasks), tasks[0].Name, " ", tasks[1].Name); got != "2a/bin/srv b/bin/srv" {
		t.Errorf("cargo workspace: %s", got)
	}
}

func FuzzParseMakefile(f *testing.F) {
	f.Add(".PHONY: a b\na: ## doc\n\techo a\nb:\nX := 1\n")
	f.Add("all:\r\nY ::= 2\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, task := range ParseMakefile(text) {
			if !makeTargetName().MatchString(task.Name) {
				t.Fatalf("task %q is not a target name", task.Name)
			}
		}
	})
}

func FuzzResolve(f *testing.F) {
	f.Add("make:test -j4")
	f.Add("  build\t--x")
	f.Add("pkg:")
	f.Fuzz(func(t *testing.T, op string) {
		r, err := Resolve(op, twoRunners())
		if err == nil && (r.Task == nil || !strings.Contains(r.Command, r.Task.Name) && !strings.Contains(r.Command, r.Task.Command)) {
			t.Fatalf("Resolve(%q) = %+v", op, r)
		}
	})
}

// show prints tasks as "name|doc[|params]; …".
func show(tasks []Task) string {
	var parts []string
	for _, t := range tasks {
		s := t.Name + "|" + t.Doc
		if len(t.Params) > 0 {
			s += "|" + strings.Join(t.Params, " ")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
