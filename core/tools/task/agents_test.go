package task

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
)

func TestParseAgent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     *Agent
		err      string
	}{
		{"full", "---\nname: review\ndescription: Reviews code\ntools: [read, Search]\nspawns: explore, plan\nmodel: pi/slow, anthropic/claude-opus-4:high\nthinking-level: medium\noutput: {}\nblocking: true\n---\n\nCheck the diff.\n",
			&Agent{Name: "review", Description: "Reviews code", Prompt: "Check the diff.", Tools: []string{"read", "search"}, Spawns: []string{"explore", "plan"},
				Models: []string{"pi/slow", "anthropic/claude-opus-4:high"}, Thinking: ai.ThinkingMedium, Blocking: true}, ""},
		{"blocking as a string", "---\nname: a\ndescription: b\nblocking: \"true\"\n---\n", &Agent{Name: "a", Description: "b", Blocking: true}, ""},
		{"minimal, CRLF and BOM", "\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n",
			&Agent{Name: "a", Description: "b", Prompt: "body"}, ""},
		{"task in tools allows any agent", "---\nname: a\ndescription: b\ntools: read, task\n---\n",
			&Agent{Name: "a", Description: "b", Tools: []string{"read", "task"}, Spawns: []string{"*"}}, ""},
		{"camelCase thinking", "---\nname: a\ndescription: b\nthinkingLevel: xhigh\n---\n", &Agent{Name: "a", Description: "b", Thinking: ai.ThinkingXHigh}, ""},
		{"no front matter", "name: a\n", nil, "no front matter"},
		{"unclosed", "---\nname: a\ndescription: b\n", nil, `no closing "---" line`},
		{"no description", "---\nname: a\n---\n", nil, "needs a name and a description"},
		{"bad name", "---\nname: a/b\ndescription: d\n---\n", nil, `name "a/b" may only hold`},
		{"bad yaml", "---\nname: [\n---\n", nil, "not valid YAML"},
		{"bad tools", "---\nname: a\ndescription: b\ntools: 3\n---\n", nil, "tools must be a list"},
		{"bad blocking", "---\nname: a\ndescription: b\nblocking: [x]\n---\n", nil, "blocking [x] is not true or false"},
		{"bad thinking", "---\nname: a\ndescription: b\nthinking-level: huge\n---\n", nil, "thinking-level huge is not one of"},
	}
	for _, c := range cases {
		a, err := ParseAgent("x.md", []byte(c.in), SourceUser)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "agent file x.md: ") {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		c.want.Source, c.want.Path = SourceUser, "x.md"
		if !reflect.DeepEqual(a, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, a, c.want)
		}
	}
}

func TestBundled(t *testing.T) {
	t.Parallel()
	var names []string
	for _, a := range Bundled() {
		names = append(names, a.Name)
		if a.Source != SourceBundled || a.Prompt == "" || a.Description == "" {
			t.Errorf("%s: %+v", a.Name, a)
		}
	}
	if !reflect.DeepEqual(names, []string{"explore", "implement", "plan"}) {
		t.Errorf("bundled agents %v", names)
	}
}

func TestDiscover(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, cwd := filepath.Join(root, "home"), filepath.Join(root, "work", "proj", "sub")
	write := func(rel, name, desc string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: "+name+"\ndescription: "+desc+"\n---\nprompt\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("work/proj/.gopi/agents/review.md", "review", "project gopi")
	write("home/.gopi/agent/agents/review.md", "review", "user gopi")
	write("home/.gopi/agent/agents/explore.md", "explore", "user explore")
	write("home/.gopi/agent/agents/a-docs.md", "docs", "user gopi docs")
	write("work/proj/.omp/agents/docs.md", "docs", "project omp")
	write("work/proj/.omp/agents/omp-only.md", "omponly", "project omp only")
	write("home/.omp/agent/agents/legacy.md", "legacy", "user omp")
	write("home/.claude/agents/claude.md", "claude", "not read")
	if err := os.WriteFile(filepath.Join(root, "home/.gopi/agent/agents/broken.md"), []byte("no front matter"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(cwd, 0o755)
	d := config.ResolveDirs(func(string) string { return "" }, home, cwd)
	agents, problems := Discover(d)
	got := map[string]string{}
	var order []string
	for _, a := range agents {
		got[a.Name] = a.Description + " (" + a.Source + ")"
		order = append(order, a.Name)
	}
	want := map[string]string{
		"review":    "project gopi (project)",
		"explore":   "user explore (user)",
		"docs":      "user gopi docs (user)",
		"omponly":   "project omp only (project)",
		"legacy":    "user omp (user)",
		"implement": Bundled()[1].Description + " (bundled)",
		"plan":      Bundled()[2].Description + " (bundled)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("agents:\n got %v\nwant %v", got, want)
	}
	if !reflect.DeepEqual(order, []string{"review", "docs", "explore", "omponly", "legacy", "implement", "plan"}) {
		t.Errorf("order %v", order)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "broken.md: no front matter") {
		t.Errorf("problems %v", problems)
	}
}

func FuzzParseAgent(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\ntools: read\n---\nbody"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\nname: [x\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		a, err := ParseAgent("f.md", in, SourceUser)
		if err == nil && (a.Name == "" || a.Description == "" || !agentName().MatchString(a.Name)) {
			t.Fatalf("accepted %q as %+v", in, a)
		}
	})
}

// Two files of one directory that give the same name: the first by file
// name is used, and a problem names both files and the winner.
func TestDiscoverDuplicateNameWarns(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, cwd := filepath.Join(root, "home"), filepath.Join(root, "proj")
	dir := filepath.Join(cwd, ".gopi", "agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ file, desc string }{{"a.md", "first"}, {"b.md", "second"}} {
		if err := os.WriteFile(filepath.Join(dir, f.file), []byte("---\nname: reviewer\ndescription: "+f.desc+"\n---\nprompt\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	agents, problems := Discover(config.ResolveDirs(func(string) string { return "" }, home, cwd))
	if agents[0].Name != "reviewer" || agents[0].Description != "first" {
		t.Fatalf("winner %+v", agents[0])
	}
	a, b := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md")
	want := `agent "reviewer" is defined by both ` + a + " and " + b + "; " + a + " is used (rename one of them)"
	if len(problems) != 1 || !errors.Is(problems[0], ErrDuplicateName) || problems[0].Error() != want {
		t.Fatalf("problems %v", problems)
	}
}
