package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestResourceDirsOrder(t *testing.T) {
	home, cwd := "/h", "/p/sub"
	d := ResolveDirs(func(string) string { return "" }, home, cwd)
	var got []string
	for _, r := range d.SkillDirs() {
		got = append(got, r.Provider+":"+strings.TrimPrefix(r.Path, "/"))
	}
	want := []string{
		"native:p/sub/.gopi/skills", "native:p/.gopi/skills", "native:.gopi/skills", "native:h/.gopi/agent/skills",
		"native:p/sub/.omp/skills", "native:p/.omp/skills", "native:.omp/skills", "native:h/.omp/agent/skills",
		"claude:p/sub/.claude/skills", "claude:h/.claude/skills",
		"agents:p/sub/.agents/skills", "agents:h/.agents/skills",
		"codex:p/sub/.codex/skills", "codex:h/.codex/skills",
		"opencode:p/sub/.opencode/skills", "opencode:h/.config/opencode/skills",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("skill dirs\n got %v\nwant %v", got, want)
	}
	// omp's directories are gopi's own: read once.
	omp := ResolveDirs(func(k string) string {
		if k == EnvCodingAgentDir {
			return "/h/.omp/agent"
		}
		return ""
	}, home, cwd)
	n := 0
	for _, r := range omp.RuleDirs() {
		if r.Path == filepath.Join(home, ".omp", "agent", "rules") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("~/.omp/agent/rules listed %d times", n)
	}
	if tds := d.TemplateDirs(); tds[0].Path != "/p/sub/.gopi/prompts" || tds[len(tds)-1].Path != "/h/.codex/prompts" {
		t.Errorf("template dirs %v", tds)
	}
}
