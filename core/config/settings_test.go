package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDefaults(t *testing.T) {
	c := newFixture(t).load()
	s := c.Settings
	if v, ok := s.Get("compaction.reserveTokens"); !ok || v != 16384 {
		t.Fatal(v, ok)
	}
	if v, ok := s.Get("no.such.key"); ok || v != nil {
		t.Fatal(v, ok)
	}
	if s.IsSet("steeringMode") || s.String("steeringMode") != QueueOneAtATime {
		t.Fatal("steeringMode default")
	}
	if s.SteeringMode() != QueueOneAtATime || s.FollowUpMode() != QueueOneAtATime || s.InterruptMode() != InterruptImmediate {
		t.Fatal("queue modes")
	}
	if got := s.Retry(); got != (Retry{Enabled: true, MaxRetries: 3, BaseDelay: 2 * time.Second}) {
		t.Fatalf("%+v", got)
	}
	want := Compaction{Enabled: true, Strategy: "context-full", ThresholdPercent: -1, ThresholdTokens: -1, ReserveTokens: 16384,
		KeepRecentTokens: 20000, AutoContinue: true, RemoteEnabled: true, IdleEnabled: true, IdleThresholdTokens: 200000, IdleTimeout: 300 * time.Second}
	if got := s.Compaction(); got != want {
		t.Fatalf("%+v", got)
	}
	if got := s.Read(); got != (Read{DefaultLimit: 500, HashLines: true, LineNumbers: false, Summarize: true, MinBodyLines: 4, MinCommentLines: 6, SQLiteTimeout: 30 * time.Second}) {
		t.Fatalf("%+v", got)
	}
	if b, a := s.SearchContext(); b != 1 || a != 3 {
		t.Fatal(b, a)
	}
	if s.EditMode() != "hashline" || s.DefaultThinkingLevel() != "high" || len(s.ModelRoles()) != 0 || s.ModelRole(RoleDefault) != "" {
		t.Fatal("edit mode, thinking level or roles")
	}
	if !reflect.DeepEqual(s.Strings("cycleOrder"), []string{"smol", "default", "slow"}) {
		t.Fatal(s.Strings("cycleOrder"))
	}
	if !c.TitleGeneration() {
		t.Fatal("title generation off by default")
	}
	if s.Int("nope") != 0 || s.String("nope") != "" || s.Bool("nope") || s.Float("edit.fuzzyThreshold") != 0.95 {
		t.Fatal("fallbacks")
	}
}

// layeredFixture writes one value per layer for the layering tests.
func layeredFixture(t *testing.T, environ ...string) *fixture {
	f := newFixture(t, environ...)
	f.write("home/.omp/agent/config.yml", "steeringMode: all\ncompaction:\n  reserveTokens: 1\n  autoContinue: false\nmodelRoles:\n  default: omp/model\n  vision: omp/eyes\n")
	f.write("home/.gopi/agent/config.yml", "# my settings\ncompaction:\n  reserveTokens: 2 # tuned\n  keepRecentTokens: 3\nmodelRoles:\n  default: gopi/model\nmyPlugin:\n  opt: 7\n")
	f.write("work/proj/.omp/settings.json", `{"followUpMode": "all", "compaction": {"keepRecentTokens": 4}}`)
	f.write("work/proj/.gopi/settings.json", `{"interruptMode": "wait", "compaction": {"idleEnabled": false}}`)
	f.write("work/proj/.gopi/config.yml", "compaction:\n  enabled: false\n")
	return f
}

func TestLayering(t *testing.T) {
	f := layeredFixture(t, EnvSmolModel+"=env/small")
	opts := f.options()
	opts.Overrides = map[string]any{"compaction.reserveTokens": 99, "modelRoles.slow": "cli/slow"}
	c, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Settings
	comp := s.Compaction()
	for _, tc := range []struct {
		what      string
		got, want any
	}{
		{"omp global", s.SteeringMode(), QueueAll},
		{"omp global below gopi global", comp.AutoContinue, false},
		{"override over gopi global", comp.ReserveTokens, 99},
		{"omp project over gopi global", comp.KeepRecentTokens, 4},
		{"omp project", s.FollowUpMode(), QueueAll},
		{"gopi project json", s.InterruptMode(), InterruptWait},
		{"gopi project yml", comp.Enabled, false},
		{"project files merge", comp.IdleEnabled, false},
		{"unknown key kept", s.Int("myPlugin.opt"), 7},
		{"roles merge across layers", s.ModelRoles(), map[string]string{"default": "gopi/model", "vision": "omp/eyes", "smol": "env/small", "slow": "cli/slow"}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.what, tc.got, tc.want)
		}
	}
	var kinds []string
	for _, l := range s.Layers() {
		kinds = append(kinds, l.Kind.String()+":"+string(l.Source)+":"+strings.TrimPrefix(l.Path, f.root))
	}
	want := []string{
		"global:omp:/home/.omp/agent/config.yml", "global:gopi:/home/.gopi/agent/config.yml",
		"project:omp:/work/proj/.omp/settings.json", "project:gopi:/work/proj/.gopi/settings.json",
		"project:gopi:/work/proj/.gopi/config.yml", "env::", "override::",
	}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("layers %q", kinds)
	}
}

func TestProjectOverridesGlobalAndSetWritesGlobal(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gopi/agent/config.yml", "# top comment\nsteeringMode: one-at-a-time # inline\nzeta: 1\ncompaction:\n  enabled: true\n")
	project := `{"steeringMode": "all"}`
	f.write("work/proj/.gopi/settings.json", project)
	s := f.load().Settings
	if s.SteeringMode() != QueueAll {
		t.Fatal("project value does not win")
	}
	if err := s.Set("steeringMode", "one-at-a-time"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("compaction.reserveTokens", 4096); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("modelRoles.smol", "a/b"); err != nil {
		t.Fatal(err)
	}
	if got := f.read("work/proj/.gopi/settings.json"); got != project {
		t.Fatalf("project file changed: %q", got)
	}
	want := "# top comment\nsteeringMode: one-at-a-time # inline\nzeta: 1\ncompaction:\n  enabled: true\n  reserveTokens: 4096\nmodelRoles:\n  smol: a/b\n"
	if got := f.read("home/.gopi/agent/config.yml"); got != want {
		t.Fatalf("config.yml:\n%s\nwant:\n%s", got, want)
	}
	if s.SteeringMode() != QueueAll || s.Compaction().ReserveTokens != 4096 || s.ModelRole(RoleSmol) != "a/b" {
		t.Fatal("in-memory view after Set")
	}
	// A fresh load sees the same.
	if s2 := f.load().Settings; s2.Compaction().ReserveTokens != 4096 || s2.Int("zeta") != 1 {
		t.Fatal("reload after Set")
	}
	if err := s.Set("compaction.reserveTokens", nil); err != nil {
		t.Fatal(err)
	}
	if got := f.read("home/.gopi/agent/config.yml"); strings.Contains(got, "reserveTokens") || !strings.Contains(got, "enabled: true") {
		t.Fatalf("after removal:\n%s", got)
	}
}

func TestSetCreatesGlobalFile(t *testing.T) {
	f := newFixture(t)
	s := f.load().Settings
	if err := s.Set("retry.maxRetries", 5); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(f.home, ".gopi", "agent", "config.yml")
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatal(fi, err)
	}
	if di, _ := os.Stat(filepath.Dir(p)); di.Mode().Perm() != 0o700 {
		t.Fatal(di.Mode())
	}
	if got := f.read("home/.gopi/agent/config.yml"); got != "retry:\n  maxRetries: 5\n" {
		t.Fatalf("%q", got)
	}
	if s.GlobalPath() != p {
		t.Fatal(s.GlobalPath())
	}
}

func TestSetRejectsBadValues(t *testing.T) {
	f := newFixture(t)
	s := f.load().Settings
	for _, tc := range []struct {
		key string
		v   any
		msg string
	}{
		{"steeringMode", "sometimes", "steeringMode: expected one of all, one-at-a-time, got \"sometimes\""},
		{"compaction.enabled", "yes", "compaction.enabled: expected a boolean, got \"yes\""},
		{"retry.maxRetries", "3", "retry.maxRetries: expected a number"},
		{"modelRoles", []string{"x"}, "modelRoles: expected a map, got a list"},
		{"a..b", 1, "invalid setting key"},
		{"", 1, "invalid setting key"},
	} {
		if err := s.Set(tc.key, tc.v); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Set(%q, %v) = %v, want %q", tc.key, tc.v, err, tc.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(f.home, ".gopi")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a rejected Set wrote something")
	}
}

func TestSetUpdatesFlatKeyInPlace(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gopi/agent/config.yml", "edit.mode: replace\nother: x\n")
	s := f.load().Settings
	if s.EditMode() != "replace" {
		t.Fatal("flat key not read")
	}
	if err := s.Set("edit.mode", "patch"); err != nil {
		t.Fatal(err)
	}
	if got := f.read("home/.gopi/agent/config.yml"); got != "edit.mode: patch\nother: x\n" {
		t.Fatalf("%q", got)
	}
	if s.EditMode() != "patch" {
		t.Fatal(s.EditMode())
	}
}

func TestSetInMemoryWithoutFiles(t *testing.T) {
	f := newFixture(t)
	opts := f.options()
	opts.NoFiles = true
	c, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Settings.Set("steeringMode", "all"); err != nil || c.Settings.SteeringMode() != QueueAll || c.Settings.GlobalPath() != "" {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.home, ".gopi")); err == nil {
		t.Fatal("NoFiles wrote a file")
	}
}

func TestOverride(t *testing.T) {
	f := newFixture(t)
	f.write("work/proj/.gopi/settings.json", `{"steeringMode": "all"}`)
	s := f.load().Settings
	if err := s.Override("steeringMode", "one-at-a-time"); err != nil || s.SteeringMode() != QueueOneAtATime {
		t.Fatal(err)
	}
	if err := s.Override("steeringMode", nil); err != nil || s.SteeringMode() != QueueAll {
		t.Fatal(err)
	}
	if err := s.Override("interruptMode", "never"); err == nil {
		t.Fatal("bad override accepted")
	}
	opts := f.options()
	opts.Overrides = map[string]any{"interruptMode": 3}
	if _, err := Load(opts); err == nil || !strings.Contains(err.Error(), "interruptMode: expected one of immediate, wait, got 3") {
		t.Fatal(err)
	}
}

func TestMigrations(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gopi/agent/config.yml", strings.Join([]string{
		"queueMode: all",
		"ask: {timeout: 30000}",
		"theme: midnight",
		"task: {isolation: {enabled: true}}",
		"edit: {mode: atom, modelVariants: {gpt: atom}}",
		"statusLine: {leftSegments: [model, plan_mode], segmentOptions: {plan_mode: {x: 1}}}",
		"memories: {enabled: true}",
		"hindsight: {dynamicBankId: true, agentName: mybank}",
	}, "\n"))
	s := f.load().Settings
	for _, tc := range []struct {
		key  string
		want any
	}{
		{"steeringMode", "all"},
		{"ask.timeout", 30},
		{"theme.dark", "midnight"},
		{"theme.light", "light"},
		{"task.isolation.mode", "auto"},
		{"edit.mode", "hashline"},
		{"edit.modelVariants.gpt", "hashline"},
		{"statusLine.leftSegments", []any{"model", "mode"}},
		{"statusLine.segmentOptions.mode.x", 1},
		{"memory.backend", "local"},
		{"hindsight.scoping", "per-project"},
		{"hindsight.bankId", "mybank"},
	} {
		if got, _ := s.Get(tc.key); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %#v, want %#v", tc.key, got, tc.want)
		}
	}
	for _, gone := range []string{"queueMode", "task.isolation.enabled", "hindsight.agentName", "hindsight.dynamicBankId"} {
		if s.IsSet(gone) {
			t.Errorf("%s still set", gone)
		}
	}
}

func TestThemeMigrationSlots(t *testing.T) {
	for _, tc := range []struct {
		theme, key, want string
		light            bool
	}{
		{"dark", "theme.dark", "titanium", false},
		{"light", "theme.light", "light", false},
		{"paper", "theme.light", "paper", true},
		{"ink", "theme.dark", "ink", false},
	} {
		f := newFixture(t)
		f.write("home/.gopi/agent/config.yml", "theme: "+tc.theme+"\n")
		opts := f.options()
		opts.IsLightTheme = func(string) bool { return tc.light }
		c, err := Load(opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Settings.String(tc.key); got != tc.want {
			t.Errorf("theme %s: %s = %q, want %q", tc.theme, tc.key, got, tc.want)
		}
	}
}

func TestAskTimeoutKeptInSeconds(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gopi/agent/config.yml", "ask:\n  timeout: 1000\n")
	if got := f.load().Settings.Int("ask.timeout"); got != 1000 {
		t.Fatal(got)
	}
	f.write("home/.gopi/agent/config.yml", "ask:\n  timeout: 2500\n")
	if got := f.load().Settings.Int("ask.timeout"); got != 3 {
		t.Fatal(got)
	}
}

func TestGlobalJSONMigratesOnce(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gopi/agent/config.jsonc", "// old\n{\"queueMode\": \"all\", \"compaction\": {\"reserveTokens\": 5,},}")
	c := f.load()
	if c.Settings.SteeringMode() != QueueAll || c.Settings.Compaction().ReserveTokens != 5 {
		t.Fatal("json values not loaded")
	}
	got := f.read("home/.gopi/agent/config.yml")
	if got != "compaction:\n  reserveTokens: 5\nsteeringMode: all\n" {
		t.Fatalf("converted file %q", got)
	}
	if f.read("home/.gopi/agent/config.jsonc") == "" {
		t.Fatal("the source was removed")
	}
	// Once config.yml exists the json is no longer read.
	f.write("home/.gopi/agent/config.jsonc", `{"steeringMode": "one-at-a-time"}`)
	if f.load().Settings.SteeringMode() != QueueAll {
		t.Fatal("json read again")
	}
}

func TestLegacySettingsJSONMigrates(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gopi/agent/settings.json", `{"interruptMode": "wait"}`)
	c := f.load()
	if c.Settings.InterruptMode() != InterruptWait {
		t.Fatal("not loaded")
	}
	if f.read("home/.gopi/agent/settings.json") != "" || f.read("home/.gopi/agent/settings.json.bak") == "" {
		t.Fatal("settings.json not renamed to .bak")
	}
	if f.read("home/.gopi/agent/config.yml") != "interruptMode: wait\n" {
		t.Fatal(f.read("home/.gopi/agent/config.yml"))
	}
}

func TestFailedConversionKeepsValuesForSet(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gopi/agent/config.json", `{"interruptMode": "wait"}`)
	dir := filepath.Join(f.home, ".gopi", "agent")
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	c, err := Load(f.options())
	os.Chmod(dir, 0o755)
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	if err != nil || len(c.Warnings) != 1 || c.Settings.InterruptMode() != InterruptWait {
		t.Fatal(err, c.Warnings)
	}
	if err := c.Settings.Set("steeringMode", "all"); err != nil {
		t.Fatal(err)
	}
	if got := f.read("home/.gopi/agent/config.yml"); !strings.Contains(got, "interruptMode: wait") || !strings.Contains(got, "steeringMode: all") {
		t.Fatalf("%q", got)
	}
}

func TestBadFilesNameFileAndKey(t *testing.T) {
	for _, tc := range []struct {
		file, content, msg string
	}{
		{"home/.gopi/agent/config.yml", "steeringMode: sometimes\n", "config.yml: steeringMode: expected one of all, one-at-a-time, got \"sometimes\""},
		{"home/.gopi/agent/config.yml", "compaction:\n  reserveTokens: lots\n", "config.yml: compaction.reserveTokens: expected a number, got \"lots\""},
		{"home/.gopi/agent/config.yml", "a: [1\nb: 2\n", "config.yml: line"},
		{"home/.gopi/agent/config.yml", "- a\n", "config.yml: expected a map of settings at the top level"},
		{"work/proj/.gopi/settings.json", "{\"readHashLines\": \"no\"}", "settings.json: readHashLines: expected a boolean, got \"no\""},
		{"work/proj/.gopi/settings.json", "{\n\"a\": 1\n\"b\": 2}", "settings.json: line 3, column 1"},
		{"home/.gopi/agent/config.json", "{\"modelRoles\": [1]}", "config.json: modelRoles: expected a map, got a list"},
	} {
		f := newFixture(t)
		p := f.write(tc.file, tc.content)
		_, err := Load(f.options())
		var fe *FileError
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !errors.As(err, &fe) || fe.Path != p {
			t.Errorf("%s %q: error %v, want one naming %s and containing %q", tc.file, tc.content, err, p, tc.msg)
		}
	}
}

func TestOMPFilesOnlyWarn(t *testing.T) {
	f := newFixture(t)
	f.write("home/.omp/agent/config.yml", "steeringMode: future-mode\ninterruptMode: wait\n")
	f.write("work/proj/.omp/settings.json", "{broken")
	c := f.load()
	if c.Settings.SteeringMode() != QueueOneAtATime || c.Settings.InterruptMode() != InterruptWait {
		t.Fatal("omp values")
	}
	if len(c.Warnings) != 2 || !strings.Contains(c.Warnings[0].Error(), "steeringMode") || !strings.Contains(c.Warnings[1].Error(), "settings.json") {
		t.Fatal(c.Warnings)
	}
}

func TestGroupAndSettingShareAKey(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gopi/agent/config.yml", "todo:\n  reminders:\n    max: 5\n")
	s := f.load().Settings
	if s.Int("todo.reminders.max") != 5 {
		t.Fatal(s.Int("todo.reminders.max"))
	}
	f.write("home/.gopi/agent/config.yml", "todo:\n  reminders: false\n")
	if f.load().Settings.Bool("todo.reminders") {
		t.Fatal("todo.reminders")
	}
}

func TestEnvLayer(t *testing.T) {
	f := newFixture(t, EnvEditVariant+"= Replace ", EnvReadLimit+"=9000", EnvSearchBefore+"=-1", EnvSearchAfter+"=7",
		EnvSlowModel+"=s/slow", EnvPlanModel+"=p/plan", EnvNoTitle+"=1")
	f.write("work/proj/.gopi/settings.json", `{"edit": {"mode": "patch", "modelVariants": {"gpt-5": "apply_patch", "claude": "bogus"}}}`)
	c := f.load()
	s := c.Settings
	if s.EditMode() != "replace" || s.EditModeFor("openai/gpt-5.1") != "apply_patch" || s.EditModeFor("claude-x") != "replace" {
		t.Fatal(s.EditMode(), s.EditModeFor("openai/gpt-5.1"), s.EditModeFor("claude-x"))
	}
	if b, a := s.SearchContext(); s.Read().DefaultLimit != 9000 || b != 1 || a != 7 {
		t.Fatal(s.Read(), b, a)
	}
	if s.ModelRole(RoleSlow) != "s/slow" || s.ModelRole(RolePlan) != "p/plan" {
		t.Fatal(s.ModelRoles())
	}
	if c.TitleGeneration() {
		t.Fatal("PI_NO_TITLE ignored")
	}
	if c.NullPrompt() {
		t.Fatal("NullPrompt without NULL_PROMPT")
	}
	for v, want := range map[string]bool{"true": true, "TRUE": false, "1": false, " true": false} {
		if got := newFixture(t, EnvNullPrompt+"="+v).load().NullPrompt(); got != want {
			t.Fatalf("NULL_PROMPT=%q: NullPrompt %v, want %v", v, got, want)
		}
	}
	f = newFixture(t, EnvEditVariant+"=bogus")
	if got := f.load().Settings.EditMode(); got != "hashline" {
		t.Fatal(got)
	}
	for in, want := range map[string]string{"atom": "hashline", "VIM": "vim", "apply_patch": "apply_patch", "x": ""} {
		if got, _ := ParseEditMode(in); got != want {
			t.Errorf("ParseEditMode(%q) = %q", in, got)
		}
	}
}

func TestSettingsConcurrentUse(t *testing.T) {
	f := newFixture(t)
	s := f.load().Settings
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 20 {
				if i%2 == 0 {
					if err := s.Set("retry.maxRetries", j); err != nil {
						t.Error(err)
					}
				} else {
					_ = s.Retry()
					_ = s.Merged()
					_ = s.Layers()
					_ = s.Override("steeringMode", "all")
				}
			}
		})
	}
	wg.Wait()
	if s.Retry().MaxRetries != 19 {
		t.Fatal(s.Retry())
	}
}

func TestSchema(t *testing.T) {
	if len(Keys()) < 200 {
		t.Fatal(len(Keys()))
	}
	for _, k := range Keys() {
		d, ok := Lookup(k)
		if !ok || d.Check(d.Default) != nil {
			t.Errorf("%s: default %v does not fit its own kind", k, d.Default)
		}
	}
	if _, ok := Lookup("compaction"); ok || !isGroup("compaction") {
		t.Fatal("groups")
	}
}

// TestSetSeedsNewFileFromGlobalLayer covers the state a failed conversion
// leaves: the global layer was read from a legacy file and config.yml does
// not exist yet. The first Set must carry the legacy values over.
func TestSetSeedsNewFileFromGlobalLayer(t *testing.T) {
	dir := t.TempDir()
	yml := filepath.Join(dir, "agent", "config.yml")
	s, err := NewSettings(yml, Layer{Kind: LayerGlobal, Source: SourceGopi, Path: filepath.Join(dir, "agent", "config.json"),
		Data: map[string]any{"interruptMode": "wait", "x": map[string]any{"z": 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("steeringMode", "all"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(yml)
	if string(b) != "interruptMode: wait\nx:\n  z: 1\nsteeringMode: all\n" {
		t.Fatalf("%q", b)
	}
	if l := s.Layers()[0]; l.Path != yml || s.InterruptMode() != InterruptWait {
		t.Fatalf("%+v", l)
	}
}
