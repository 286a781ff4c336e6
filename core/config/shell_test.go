package config

import (
	"slices"
	"testing"
	"time"
)

func TestShellDefaults(t *testing.T) {
	c := newFixture(t, "SHELL=/bin/zsh").load()
	sh := c.Shell()
	if sh.Path != "" || sh.UserShell != "/bin/zsh" || !sh.Login || sh.Prefix != "" || sh.NoCI || sh.NoPTY {
		t.Fatalf("%+v", sh)
	}
	if !slices.Contains(sh.Environ, "SHELL=/bin/zsh") {
		t.Fatal("environment not passed on")
	}
}

func TestShellFromEnvironment(t *testing.T) {
	for _, tc := range []struct {
		env   []string
		check func(Shell) bool
	}{
		{[]string{"PI_BASH_NO_LOGIN=1"}, func(s Shell) bool { return !s.Login }},
		{[]string{"PI_BASH_NO_LOGIN=0"}, func(s Shell) bool { return !s.Login }}, // any value, as omp
		{[]string{"CLAUDE_BASH_NO_LOGIN=yes"}, func(s Shell) bool { return !s.Login }},
		{[]string{"PI_BASH_NO_CI=1"}, func(s Shell) bool { return s.NoCI }},
		{[]string{"CLAUDE_BASH_NO_CI=1"}, func(s Shell) bool { return s.NoCI }},
		{[]string{"PI_SHELL_PREFIX=strace -f"}, func(s Shell) bool { return s.Prefix == "strace -f" }},
		{[]string{"CLAUDE_CODE_SHELL_PREFIX=time"}, func(s Shell) bool { return s.Prefix == "time" }},
		{[]string{"PI_SHELL_PREFIX=a", "CLAUDE_CODE_SHELL_PREFIX=b"}, func(s Shell) bool { return s.Prefix == "a" }},
		{[]string{"PI_NO_PTY=1"}, func(s Shell) bool { return s.NoPTY }},
		{[]string{"PI_NO_PTY=true"}, func(s Shell) bool { return !s.NoPTY }}, // only "1", as omp
	} {
		if sh := newFixture(t, tc.env...).load().Shell(); !tc.check(sh) {
			t.Errorf("%v: %+v", tc.env, sh)
		}
	}
	f := newFixture(t)
	f.write("work/proj/.gopi/settings.json", `{"shellPath": "/usr/bin/bash"}`)
	if p := f.loadTrusted().Shell().Path; p != "/usr/bin/bash" {
		t.Fatal(p)
	}
}

func TestBashSettings(t *testing.T) {
	b := newFixture(t).load().Settings.Bash()
	want := Bash{AsyncMaxJobs: 100, PollWait: 30 * time.Second, AutoThreshold: 60 * time.Second}
	if b.InterceptorRules != nil || b.InterceptorEnabled || b.AsyncEnabled || b.AutoBackground ||
		b.AsyncMaxJobs != want.AsyncMaxJobs || b.PollWait != want.PollWait || b.AutoThreshold != want.AutoThreshold || b.MaxArtifactBytes != 64<<20 {
		t.Fatalf("%+v", b)
	}
	f := newFixture(t)
	f.write("work/proj/.gopi/settings.json", `{
		"async": {"enabled": true, "maxJobs": 500, "pollWaitDuration": "5s"},
		"bash": {"autoBackground": {"enabled": true, "thresholdMs": 1500}},
		"bashInterceptor": {"enabled": true, "patterns": [
			{"pattern": "^ls\\b", "tool": "find", "message": "use find", "flags": "i"},
			"not a rule"
		]}}`)
	b = f.load().Settings.Bash()
	if !b.AsyncEnabled || b.AsyncMaxJobs != 100 || b.PollWait != 5*time.Second || !b.AutoBackground || b.AutoThreshold != 1500*time.Millisecond || !b.InterceptorEnabled {
		t.Fatalf("%+v", b)
	}
	if len(b.InterceptorRules) != 1 || b.InterceptorRules[0] != (InterceptorRule{Pattern: `^ls\b`, Flags: "i", Tool: "find", Message: "use find"}) {
		t.Fatalf("%+v", b.InterceptorRules)
	}
	re, err := b.InterceptorRules[0].Regexp()
	if err != nil || !re.MatchString("LS -la") {
		t.Fatal(re, err)
	}
	if _, err := (InterceptorRule{Pattern: "(?<=x)y"}).Regexp(); err == nil {
		t.Fatal("lookbehind compiled")
	}
	f = newFixture(t)
	f.write("work/proj/.gopi/settings.json", `{"async": {"maxJobs": 0}}`)
	if n := f.load().Settings.Bash().AsyncMaxJobs; n != 1 {
		t.Fatal(n)
	}
	for text, want := range map[string]int64{`1048576`: 1 << 20, `0`: 0, `-5`: 0} {
		f = newFixture(t)
		f.write("work/proj/.gopi/settings.json", `{"bash": {"maxArtifactBytes": `+text+`}}`)
		if n := f.load().Settings.Bash().MaxArtifactBytes; n != want {
			t.Fatalf("maxArtifactBytes %s: %d", text, n)
		}
	}
}
