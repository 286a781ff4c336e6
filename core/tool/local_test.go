package tool

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
)

func localEnv(t testing.TB) (*Env, string) {
	root := t.TempDir()
	e := NewEnv(filepath.Join(root, "project"))
	e.Artifacts = artifact.NewStore(filepath.Join(root, "sess"))
	return e, filepath.Join(root, "sess", "local")
}

func TestLocalURLs(t *testing.T) {
	e, dir := localEnv(t)
	for in, want := range map[string]string{
		"local://PLAN.md":        filepath.Join(dir, "PLAN.md"),
		"local:/notes/a.md":      filepath.Join(dir, "notes", "a.md"),
		"local://../../etc/pass": dir, // cannot leave the directory
		"local://":               dir,
		"PLAN.md":                filepath.Join(e.Cwd, "PLAN.md"),
	} {
		if got := e.Resolve(in); got != want {
			t.Errorf("Resolve(%q) = %s, want %s", in, got, want)
		}
	}
	if got := e.DisplayPath(filepath.Join(dir, "PLAN.md")); got != "local://PLAN.md" {
		t.Errorf("display %s", got)
	}
	if e.OutsideCwd(filepath.Join(dir, "PLAN.md")) {
		t.Error("the scratch directory counts as outside the working directory")
	}
	// Kept in memory: the fallback directory.
	e.Artifacts, e.LocalFallback = nil, "/tmp/gopi-local/x"
	if got := e.Resolve("local://a"); got != "/tmp/gopi-local/x/a" {
		t.Errorf("fallback %s", got)
	}
	e.LocalFallback = ""
	if e.IsLocalURL("local://a") {
		t.Error("a session without a scratch directory resolves local://")
	}
	// In plan mode a bare PLAN.md is the plan file.
	e2, dir2 := localEnv(t)
	plan := filepath.Join(dir2, "PLAN.md")
	e2.SetPlanMode(&PlanMode{File: "local://PLAN.md", Abs: plan})
	if got := e2.Resolve("./PLAN.md"); got != plan {
		t.Errorf("plan redirect %s", got)
	}
	if err := e2.CheckPlanWrite(filepath.Join(e2.Cwd, "x.go")); err == nil || err.Error() != "Plan mode: only the plan file may be modified (local://PLAN.md)." {
		t.Errorf("check %v", err)
	}
}

// FuzzLocalURL: whatever follows local://, the file is in the session's
// scratch directory.
func FuzzLocalURL(f *testing.F) {
	for _, s := range []string{"PLAN.md", "../x", "a/../../b", "..\\..\\c", "/etc/passwd", "%2e%2e/x", "a//b/./c", ""} {
		f.Add(s)
	}
	e, dir := localEnv(f)
	f.Fuzz(func(t *testing.T, rest string) {
		got := e.Resolve("local://" + rest)
		if got != dir && !strings.HasPrefix(got, dir+string(filepath.Separator)) {
			t.Fatalf("local://%s resolves to %s, outside %s", rest, got, dir)
		}
	})
}

// CheckLocal refuses local:// when there is no scratch directory and a
// path that climbs out of it; other paths pass.
func TestCheckLocal(t *testing.T) {
	e, _ := localEnv(t)
	for _, p := range []string{"local://PLAN.md", "local:/a/b.md", "local://", "x/../y", "/etc/x"} {
		if err := e.CheckLocal(p); err != nil {
			t.Errorf("CheckLocal(%q) = %v, want nil", p, err)
		}
	}
	for _, p := range []string{"local://../../x", "local:/../y"} {
		if err := e.CheckLocal(p); err == nil || !strings.Contains(err.Error(), "leaves local://") {
			t.Errorf("CheckLocal(%q) = %v, want the leaves-local:// refusal", p, err)
		}
	}
	bare := NewEnv(t.TempDir())
	if err := bare.CheckLocal("local://y.md"); err == nil || !strings.Contains(err.Error(), "local:// resources are not available in this session") {
		t.Errorf("no scratch directory: %v", err)
	}
	if err := bare.CheckLocal("y.md"); err != nil {
		t.Errorf("plain path refused without a scratch directory: %v", err)
	}
}
