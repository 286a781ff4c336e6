package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

func TestFromConfig(t *testing.T) {
	dir := t.TempDir()
	zsh := filepath.Join(dir, "zsh")
	os.WriteFile(zsh, []byte("#!/bin/sh\n"), 0o755)
	notExec := filepath.Join(dir, "bash")
	os.WriteFile(notExec, []byte(""), 0o644)

	cfg, err := FromConfig(config.Shell{UserShell: zsh, Login: true, Environ: []string{"PATH=/usr/bin:/bin", "CI=0", "PAGER=less"}})
	if err != nil || cfg.Path != zsh || !cfg.Login {
		t.Fatal(cfg, err)
	}
	for _, want := range []string{"PAGER=cat", "CI=1", "GIT_EDITOR=true", "EDITOR=true", "GIT_TERMINAL_PROMPT=0", "SSH_ASKPASS=/usr/bin/false", "GIT_PAGER=cat", "SHELL=" + zsh} {
		if !slices.Contains(cfg.Env, want) {
			t.Errorf("missing %s in %v", want, cfg.Env)
		}
	}
	if slices.Contains(cfg.Env, "CI=0") || slices.Contains(cfg.Env, "PAGER=less") {
		t.Error("a duplicate survived")
	}
	cfg, err = FromConfig(config.Shell{UserShell: "/bin/fish", NoCI: true, Environ: []string{"PATH=" + dir + ":/usr/bin:/bin"}})
	if err != nil || filepath.Base(cfg.Path) != "bash" || cfg.Path == notExec {
		t.Fatal(cfg.Path, err)
	}
	if slices.ContainsFunc(cfg.Env, func(s string) bool { return strings.HasPrefix(s, "CI=") }) {
		t.Error("CI set despite NoCI")
	}
	if _, err := FromConfig(config.Shell{Path: filepath.Join(dir, "nope")}); err == nil || !strings.Contains(err.Error(), "shellPath") {
		t.Fatal(err)
	}
	if cfg, err := FromConfig(config.Shell{Path: zsh}); err != nil || cfg.Path != zsh {
		t.Fatal(err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{"": "''", "a b": "'a b'", "it's": `'it'\''s'`} {
		if got := Quote(in); got != want {
			t.Errorf("%q: %s", in, got)
		}
	}
}
