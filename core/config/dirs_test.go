package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestResolveDirs(t *testing.T) {
	home, cwd := "/h", "/w/p"
	for _, tc := range []struct {
		name              string
		env               map[string]string
		agent, root, proj string
	}{
		{"defaults", nil, "/h/.gopi/agent", "/h/.gopi", "/w/p/.gopi"},
		{"agent dir with ~", map[string]string{EnvCodingAgentDir: "~/x/agent"}, "/h/x/agent", "/h/.gopi", "/w/p/.gopi"},
		{"agent dir ~ alone", map[string]string{EnvCodingAgentDir: "~"}, "/h", "/h/.gopi", "/w/p/.gopi"},
		{"relative agent dir", map[string]string{EnvCodingAgentDir: "rel/a/"}, "/w/p/rel/a", "/h/.gopi", "/w/p/.gopi"},
		{"absolute agent dir", map[string]string{EnvCodingAgentDir: " /abs/a "}, "/abs/a", "/h/.gopi", "/w/p/.gopi"},
		{"config dir name", map[string]string{EnvConfigDir: ".custom"}, "/h/.custom/agent", "/h/.custom", "/w/p/.custom"},
		{"both", map[string]string{EnvConfigDir: ".custom", EnvCodingAgentDir: "/a"}, "/a", "/h/.custom", "/w/p/.custom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ResolveDirs(EnvFromMap(tc.env).Get, home, cwd)
			if d.AgentDir != tc.agent || d.ConfigRoot != tc.root || d.ProjectDir != tc.proj {
				t.Fatalf("%+v", d)
			}
			if d.OMPAgentDir != "/h/.omp/agent" || d.OMPRoot != "/h/.omp" || d.OMPProjectDir != "/w/p/.omp" || d.Cwd != cwd || d.Home != home {
				t.Fatalf("omp dirs %+v", d)
			}
		})
	}
}

func TestSources(t *testing.T) {
	d := ResolveDirs(EnvFromMap(nil).Get, "/h", "/w")
	var ids []SourceID
	var prios []int
	for _, s := range d.Sources() {
		ids = append(ids, s.ID)
		prios = append(prios, s.Priority)
	}
	if !reflect.DeepEqual(ids, []SourceID{SourceGopi, SourceOMP, SourceClaude, SourceCodex, SourceGemini}) || !reflect.DeepEqual(prios, []int{100, 90, 80, 70, 60}) {
		t.Fatal(ids, prios)
	}
	// When gopi's directories are omp's, omp is not a second source.
	d = ResolveDirs(EnvFromMap(map[string]string{EnvConfigDir: ".omp"}).Get, "/h", "/w")
	if omp := d.Sources()[1]; omp.UserDir != "" || omp.ProjectName != "" {
		t.Fatalf("%+v", omp)
	}
	if len(d.ConfigDirs("", DirQuery{})) != 8 {
		t.Fatal(d.ConfigDirs("", DirQuery{}))
	}
}

func TestConfigDirs(t *testing.T) {
	d := ResolveDirs(EnvFromMap(nil).Get, "/h", "/w")
	got := d.ConfigDirs("skills", DirQuery{})
	want := []ConfigDir{
		{"/h/.gopi/agent/skills", SourceGopi, 100, LevelUser},
		{"/h/.omp/agent/skills", SourceOMP, 90, LevelUser},
		{"/h/.claude/skills", SourceClaude, 80, LevelUser},
		{"/h/.codex/skills", SourceCodex, 70, LevelUser},
		{"/h/.gemini/skills", SourceGemini, 60, LevelUser},
		{"/w/.gopi/skills", SourceGopi, 100, LevelProject},
		{"/w/.omp/skills", SourceOMP, 90, LevelProject},
		{"/w/.claude/skills", SourceClaude, 80, LevelProject},
		{"/w/.codex/skills", SourceCodex, 70, LevelProject},
		{"/w/.gemini/skills", SourceGemini, 60, LevelProject},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%v", got)
	}
	if got := d.ConfigDirs("x", DirQuery{SkipUser: true}); len(got) != 5 || got[0].Level != LevelProject {
		t.Fatal(got)
	}
	if got := d.ConfigDirs("x", DirQuery{SkipProject: true}); len(got) != 5 || got[4].Level != LevelUser {
		t.Fatal(got)
	}
}

func TestFindOMPFiles(t *testing.T) {
	f := newFixture(t)
	f.write("home/.omp/agent/models.yml", "providers: {}\n")
	f.write("home/.omp/agent/sessions/--work--/s.jsonl", "{}\n")
	f.write("work/proj/.omp/AGENTS.md", "# omp\n")
	f.write("home/.claude/skills/x/SKILL.md", "")
	c := f.load()
	got, ok := c.FindConfigFile("models.yml", DirQuery{})
	if !ok || got.Source != SourceOMP || got.Path != filepath.Join(f.home, ".omp/agent/models.yml") {
		t.Fatalf("%+v %v", got, ok)
	}
	if got, ok := c.FindConfigFile("AGENTS.md", DirQuery{}); !ok || got.Source != SourceOMP || got.Level != LevelProject {
		t.Fatalf("%+v", got)
	}
	sessions := c.ConfigDirs("sessions", DirQuery{ExistingOnly: true})
	if len(sessions) != 1 || sessions[0].Source != SourceOMP {
		t.Fatal(sessions)
	}
	if s := c.ConfigDirs("skills", DirQuery{ExistingOnly: true}); len(s) != 1 || s[0].Source != SourceClaude {
		t.Fatal(s)
	}
	// gopi's own file wins once it exists.
	f.write("home/.gopi/agent/models.yml", "providers: {}\n")
	if got, _ := c.FindConfigFile("models.yml", DirQuery{}); got.Source != SourceGopi {
		t.Fatal(got)
	}
	if _, ok := c.FindConfigFile("nope.yml", DirQuery{}); ok {
		t.Fatal("found a missing file")
	}
}

func TestNearestProjectConfigDirs(t *testing.T) {
	f := newFixture(t)
	deep := filepath.Join(f.cwd, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	f.write("work/.claude/rules/r.md", "")          // above the project
	f.write("work/proj/.gopi/rules/r.md", "")       // project root
	f.write("work/proj/a/.omp/rules/r.md", "")      // nearer
	f.write("work/proj/a/b/.claude/rules/r.md", "") // nearest claude
	f.write("work/proj/a/b/.codex/rules", "")       // a file, not a directory
	d := ResolveDirs(EnvFromMap(nil).Get, f.home, deep)
	got := d.NearestProjectConfigDirs("rules")
	want := []ConfigDir{
		{filepath.Join(f.cwd, ".gopi/rules"), SourceGopi, 100, LevelProject},
		{filepath.Join(f.cwd, "a/.omp/rules"), SourceOMP, 90, LevelProject},
		{filepath.Join(deep, ".claude/rules"), SourceClaude, 80, LevelProject},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%v", got)
	}
}
