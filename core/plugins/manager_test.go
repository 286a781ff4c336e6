package plugins

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// writeFiles writes name → content below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
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

// writeScript writes an executable script at path. Written by this
// process, it could fail to start with "text file busy": a parallel
// test's fork between our open and close holds the written descriptor
// until its exec. install(1) writes it in a process of its own instead.
func writeScript(t *testing.T, path, body string) {
	t.Helper()
	src := path + ".src"
	if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("install", "-m", "0755", src, path).CombinedOutput(); err != nil {
		t.Fatalf("install %s: %v: %s", path, err, out)
	}
}

// market writes a local marketplace named name listing plugins (name →
// source) with a skill each, and returns its directory.
func market(t *testing.T, name string, plugins map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	var entries []string
	files := map[string]string{}
	for p, src := range plugins {
		entries = append(entries, `{"name":"`+p+`","source":"`+src+`","version":"1.0.0"}`)
		files[filepath.Join(src, "skills", p+"-skill", "SKILL.md")] = "---\ndescription: skill of " + p + "\n---\nbody\n"
	}
	files[CatalogPath] = `{"name":"` + name + `","owner":{"name":"t"},"plugins":[` + strings.Join(entries, ",") + `]}`
	writeFiles(t, dir, files)
	return dir
}

// newManager returns a manager over a fresh agent directory and project.
func newManager(t *testing.T) *Manager {
	t.Helper()
	root := t.TempDir()
	return &Manager{Layout: Layout{Root: filepath.Join(root, "agent")}, ProjectDir: filepath.Join(root, "project", ".gopi"), Home: root, Cwd: filepath.Join(root, "project")}
}

// sources returns the registries m writes.
func (m *Manager) sources() Sources { return Sources{Layout: m.Layout, ProjectDir: m.ProjectDir} }

func TestInstallScopesAndShadowing(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	mk, err := m.AddMarketplace(ctx, market(t, "local-mk", map[string]string{"alpha": "./plugins/alpha"}))
	if err != nil || mk.SourceType != TypeLocal {
		t.Fatalf("%+v %v", mk, err)
	}
	if _, err := m.AddMarketplace(ctx, mk.SourceURI); err == nil || !strings.Contains(err.Error(), "already added") {
		t.Fatalf("second add: %v", err)
	}
	id := ID{Name: "alpha", Marketplace: "local-mk"}
	user, err := m.Install(ctx, id, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Install(ctx, id, InstallOptions{}); err == nil || !strings.Contains(err.Error(), "use --force") {
		t.Fatalf("reinstall without --force: %v", err)
	}
	proj, err := m.Install(ctx, id, InstallOptions{Scope: ScopeProject})
	if err != nil {
		t.Fatal(err)
	}
	roots, errs := Roots(m.sources(), nil)
	if len(errs) != 0 || len(roots) != 1 || roots[0].Scope != ScopeProject || roots[0].Path != proj.InstallPath {
		t.Fatalf("roots %+v %v", roots, errs)
	}
	list, _ := List(m.sources())
	if len(list) != 2 || list[0].Shadowed || !list[1].Shadowed || list[1].Install.InstallPath != user.InstallPath {
		t.Fatalf("list %+v", list)
	}
	// The project's copy off: it still hides the user's (project wins).
	if err := m.SetEnabled(id, ScopeProject, false); err != nil {
		t.Fatal(err)
	}
	if roots, _ := Roots(m.sources(), nil); len(roots) != 0 {
		t.Fatalf("a disabled plugin contributes: %+v", roots)
	}
	// An untrusted project's registry is not read.
	src := m.sources()
	src.SkipProject = true
	if roots, _ := Roots(src, nil); len(roots) != 1 || roots[0].Scope != ScopeUser {
		t.Fatalf("roots without the project %+v", roots)
	}
	if err := m.Uninstall(id, ScopeProject); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(proj.InstallPath); err != nil {
		t.Fatalf("the user's install shares the directory and must stay: %v", err)
	}
	if err := m.Uninstall(id, ScopeUser); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(user.InstallPath); !os.IsNotExist(err) {
		t.Fatalf("files left after the last uninstall: %v", err)
	}
	if err := m.Uninstall(id, ScopeUser); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatal(err)
	}
}

func TestInstallNameCollision(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	for _, name := range []string{"first", "second"} {
		if _, err := m.AddMarketplace(ctx, market(t, name, map[string]string{"demo": "./demo"})); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Install(ctx, ID{"demo", "first"}, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := m.Install(ctx, ID{"demo", "second"}, InstallOptions{Scope: ScopeProject})
	if err == nil || !strings.Contains(err.Error(), `plugin name "demo" is already taken by demo@first (user scope)`) {
		t.Fatalf("%v", err)
	}
}

func TestInstallRefusesEscapes(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.txt": "secret", "skills/x/SKILL.md": "---\ndescription: d\n---\n"})
	dir := market(t, "esc", map[string]string{"inner": "./plugins/inner"})
	// A plugin directory that is a link out of the marketplace, and a
	// plugin file that is a link out of the plugin.
	if err := os.Symlink(outside, filepath.Join(dir, "plugins", "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "plugins", "inner", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{CatalogPath: `{"name":"esc","owner":{"name":"t"},"plugins":[
		{"name":"inner","source":"./plugins/inner"},{"name":"linked","source":"./plugins/linked"}]}`})
	if _, err := m.AddMarketplace(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Install(ctx, ID{"linked", "esc"}, InstallOptions{}); err == nil || !strings.Contains(err.Error(), "leads outside") {
		t.Fatalf("linked: %v", err)
	}
	if _, err := m.Install(ctx, ID{"inner", "esc"}, InstallOptions{}); err == nil || !strings.Contains(err.Error(), "leak.txt is a symbolic link leading outside the plugin") {
		t.Fatalf("inner: %v", err)
	}
	if list, _ := List(m.sources()); len(list) != 0 {
		t.Fatalf("a refused install was registered: %+v", list)
	}
	if ents, _ := os.ReadDir(m.Layout.PluginCache()); len(ents) != 0 {
		t.Fatalf("a refused install left files: %v", ents)
	}
}

func TestAddMalformedCatalog(t *testing.T) {
	m := newManager(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{CatalogPath: `{"name":"x","owner":{"name":"t"},"plugins":[{"name":"p","source":"../../etc"}]}`})
	_, err := m.AddMarketplace(context.Background(), dir)
	want := filepath.Join(dir, CatalogPath) + `: plugins[0]: plugin "p": source: path "../../etc" leads outside its directory`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v\nwant %s", err, want)
	}
	if _, err := m.AddMarketplace(context.Background(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "has no catalog") {
		t.Fatal(err)
	}
	if mks, _ := m.Marketplaces(); len(mks) != 0 {
		t.Fatalf("%+v", mks)
	}
}

func TestGitMissingAndHanging(t *testing.T) {
	m := newManager(t)
	m.Git = Git{Program: "/nonexistent/git"}
	if _, err := m.AddMarketplace(context.Background(), "https://example.invalid/x.git"); !errors.Is(err, ErrNoGit) {
		t.Fatalf("%v", err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // a repository that never answers
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	m.Git = Git{Timeout: time.Second}
	start := time.Now()
	_, err := m.AddMarketplace(context.Background(), srv.URL+"/repo.git")
	if err == nil || !strings.Contains(err.Error(), "did not finish within 1s") {
		t.Fatalf("%v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the hanging clone took %s", d)
	}
	if ents, _ := os.ReadDir(m.Layout.MarketplaceCache()); len(ents) != 0 {
		t.Fatalf("the stopped clone left %v", ents)
	}
}

func TestConcurrentInstalls(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	names := []string{"p1", "p2", "p3", "p4"}
	plugins := map[string]string{}
	for _, n := range names {
		plugins[n] = "./" + n
	}
	if _, err := m.AddMarketplace(ctx, market(t, "many", plugins)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(names))
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mm := *m // a manager of its own, as another process has
			_, err := mm.Install(ctx, ID{n, "many"}, InstallOptions{})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if list, _ := List(m.sources()); len(list) != len(names) {
		t.Fatalf("%d of %d installs registered: %+v", len(list), len(names), list)
	}
}

// envKillHelper makes the test binary hold the plugin lock in the
// middle of a staged install until it is killed.
const envKillHelper = "GOPI_PLUGINS_KILL_HELPER"

func TestMain(m *testing.M) {
	if root := os.Getenv(envKillHelper); root != "" {
		mg := &Manager{Layout: Layout{Root: root}}
		if _, err := mg.lock(); err != nil {
			os.Exit(3)
		}
		stage := tempDir(filepath.Join(mg.Layout.PluginCache(), ".staging"), "plugin-")
		_ = os.MkdirAll(stage, 0o755)
		_ = os.WriteFile(filepath.Join(stage, "half"), []byte("half written"), 0o644)
		os.Stdout.WriteString("holding\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A process killed with SIGKILL mid-install leaves the previous state:
// nothing registered, the lock free, and the next install clears its
// staging directory.
func TestKilledInstallLeavesNoBrokenState(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	if _, err := m.AddMarketplace(ctx, market(t, "k", map[string]string{"kp": "./kp"})); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envKillHelper+"="+m.Layout.Root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if _, err := out.Read(buf); err != nil || string(buf[:7]) != "holding" {
		t.Fatalf("helper: %q %v", buf, err)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if roots, errs := Roots(m.sources(), nil); len(roots) != 0 || len(errs) != 0 {
		t.Fatalf("after the kill: %+v %v", roots, errs)
	}
	inst, err := m.Install(ctx, ID{"kp", "k"}, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m.Layout.PluginCache(), ".staging")); !os.IsNotExist(err) {
		t.Fatalf("the killed install's staging directory is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(inst.InstallPath, "skills", "kp-skill", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
}

// gitRepo makes a Git repository of files and returns its file:// URL.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	writeFiles(t, dir, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return "file://" + dir
}

// Plugins from their own Git repositories (url) and from a directory of
// one (git-subdir) install with the commit recorded, without .git.
func TestInstallGitSources(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	single := gitRepo(t, map[string]string{".claude-plugin/plugin.json": `{"name":"solo","version":"3.1.0"}`, "commands/a.md": "a"})
	mono := gitRepo(t, map[string]string{"pkgs/inner/commands/b.md": "b"})
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{CatalogPath: `{"name":"remote","owner":{"name":"t"},"plugins":[
		{"name":"solo","source":{"source":"url","url":"` + single + `"}},
		{"name":"inner","source":{"source":"git-subdir","url":"` + mono + `","path":"pkgs/inner"}}]}`})
	if _, err := m.AddMarketplace(ctx, dir); err != nil {
		t.Fatal(err)
	}
	solo, err := m.Install(ctx, ID{"solo", "remote"}, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if solo.Version != "3.1.0" || len(solo.GitCommitSha) != 40 || filepath.Base(solo.InstallPath) != "remote___solo___3.1.0" {
		t.Fatalf("%+v", solo)
	}
	if _, err := os.Stat(filepath.Join(solo.InstallPath, ".git")); !os.IsNotExist(err) {
		t.Fatalf("the clone's .git was copied: %v", err)
	}
	inner, err := m.Install(ctx, ID{"inner", "remote"}, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(inner.InstallPath, "commands", "b.md")); err != nil || inner.Version != inner.GitCommitSha[:12] {
		t.Fatalf("%+v %v", inner, err)
	}
}

// A plugin installed in one project and in the user's scope shares its
// directory: uninstalling (or upgrading) it in the user's scope from
// elsewhere, where that project's registry is not in view, must not
// delete the files the project still uses. They go once the last
// registry naming them lets go.
func TestUninstallKeepsOtherProjectsFiles(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	if _, err := m.AddMarketplace(ctx, market(t, "mk", map[string]string{"alpha": "./plugins/alpha"})); err != nil {
		t.Fatal(err)
	}
	id := ID{Name: "alpha", Marketplace: "mk"}
	proj, err := m.Install(ctx, id, InstallOptions{Scope: ScopeProject})
	if err != nil {
		t.Fatal(err)
	}
	// The same user, working in another directory with no project.
	elsewhere := *m
	elsewhere.ProjectDir = ""
	if _, err := elsewhere.Install(ctx, id, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := elsewhere.Uninstall(id, ScopeUser); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(proj.InstallPath); err != nil {
		t.Fatalf("the project's plugin files were deleted by the user-scope uninstall: %v", err)
	}
	if roots, errs := Roots(m.sources(), nil); len(errs) != 0 || len(roots) != 1 {
		t.Fatalf("the project's plugin no longer loads: %+v %v", roots, errs)
	}
	// The project lets go: now the files go.
	if err := m.Uninstall(id, ScopeProject); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(proj.InstallPath); !os.IsNotExist(err) {
		t.Fatalf("files left after the last uninstall: %v", err)
	}
}

// git (or npm) stopped at its time bound takes what it started with it:
// a helper it spawned (git-remote-https, say) must not live on.
func TestStoppedChildTakesItsChildren(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := sleeper(t, dir, "helper")
	fake := filepath.Join(dir, "git")
	writeScript(t, fake, "#!/bin/sh\n"+marker+" 1021\necho done\n")
	_, err := Git{Program: fake, Timeout: 300 * time.Millisecond}.Head(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "did not finish within") {
		t.Fatalf("%v", err)
	}
	waitRunning(t, marker, false, "the stopped git to take its helper along")
}

// A project's registry is part of the repository: a hostile one could
// name a directory it ships (with a SessionStart hook) and have it run
// in every session opened there, without any install or trust prompt.
// Only directories of the user's plugin caches (where gopi or omp
// install project-scope plugins) are loaded from a project's registry.
func TestProjectRegistryConfinedToPluginCache(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	if _, err := m.AddMarketplace(ctx, market(t, "mk", map[string]string{"alpha": "./plugins/alpha"})); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Install(ctx, ID{Name: "alpha", Marketplace: "mk"}, InstallOptions{Scope: ScopeProject}); err != nil {
		t.Fatal(err)
	}
	reg, err := readInstalled(ProjectInstalledFile(m.ProjectDir))
	if err != nil {
		t.Fatal(err)
	}
	shipped := filepath.Join(m.Cwd, "evil")
	writeFiles(t, shipped, map[string]string{"hooks/hooks.json": `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch pwned"}]}]}}`})
	reg.Plugins["evil@x"] = []Install{{Scope: ScopeProject, InstallPath: shipped, Version: "1"}}
	reg.Plugins["rel@x"] = []Install{{Scope: ScopeProject, InstallPath: "evil", Version: "1"}}
	reg.Plugins["up@x"] = []Install{{Scope: ScopeProject, InstallPath: filepath.Join(m.Layout.PluginCache(), "..", "..", "..", "..", "project", "evil"), Version: "1"}}
	if err := writeJSON(ProjectInstalledFile(m.ProjectDir), reg); err != nil {
		t.Fatal(err)
	}
	t.Chdir(m.Cwd)
	roots, errs := Roots(m.sources(), nil)
	if len(roots) != 1 || roots[0].ID.Name != "alpha" {
		t.Fatalf("roots from the project's registry: %+v", roots)
	}
	if len(errs) != 3 || !strings.Contains(errs[0].Error(), "outside") {
		t.Fatalf("errors %v", errs)
	}
	// The user's own registry may name any directory.
	user, err := readInstalled(m.Layout.InstalledFile())
	if err != nil {
		t.Fatal(err)
	}
	user.Plugins["mine@x"] = []Install{{Scope: ScopeUser, InstallPath: shipped, Version: "1"}}
	if err := writeJSON(m.Layout.InstalledFile(), user); err != nil {
		t.Fatal(err)
	}
	if roots, _ := Roots(m.sources(), nil); len(roots) != 2 {
		t.Fatalf("the user's registry: %+v", roots)
	}
}

// What a process killed mid-change leaves (a half-copied staging
// directory, a half-made marketplace clone, a directory moved aside) is
// removed by the next change of any kind, under the lock, not only by the
// next install: a killed clone of a large repository stayed for good.
func TestStaleTemporariesRemovedByAnyChange(t *testing.T) {
	m := newManager(t)
	left := []string{
		filepath.Join(m.Layout.PluginCache(), ".staging", "plugin-0123", "half"),
		filepath.Join(m.Layout.MarketplaceCache(), ".clone-4567", "objects"),
		filepath.Join(m.Layout.PluginCache(), ".old-89ab", "file"),
		filepath.Join(m.Layout.MarketplaceCache(), ".old-cdef", "file"),
	}
	keep := filepath.Join(m.Layout.PluginCache(), "mk___p___1.0.0", "file")
	for _, f := range append(left, keep) {
		writeFiles(t, filepath.Dir(f), map[string]string{filepath.Base(f): "x"})
	}
	if _, err := m.UpdateMarketplaces(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, f := range left {
		if _, err := os.Stat(filepath.Dir(f)); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", filepath.Dir(f), err)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatalf("an install was removed: %v", err)
	}
}
