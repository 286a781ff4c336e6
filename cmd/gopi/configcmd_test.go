package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gopi config set writes config.yml through the settings' one write path,
// get reads it back, reset removes it, and a bad value or key is refused
// with the key and what it accepts.
func TestConfigCommand(t *testing.T) {
	environ := isolatedEnviron(t)
	file := filepath.Join(homeOf(environ), ".gopi", "agent", "config.yml")

	out, errOut, code := loginRun(t, environ, nil, "", "config", "set", "defaultThinkingLevel", "low")
	if code != 0 || out != "Set defaultThinkingLevel = low\n" {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "defaultThinkingLevel: low\n" {
		t.Fatalf("%q %v", b, err)
	}
	if out, _, _ = loginRun(t, environ, nil, "", "config", "get", "defaultThinkingLevel"); out != "low\n" {
		t.Fatalf("%q", out)
	}
	out, _, _ = loginRun(t, environ, nil, "", "config", "get", "compaction.enabled", "--json")
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil || got["value"] != true || got["type"] != "boolean" {
		t.Fatalf("%q %v", out, err)
	}
	if out, _, _ = loginRun(t, environ, nil, "", "config", "set", "temperature", "--", "-1"); out != "Set temperature = -1\n" {
		t.Fatalf("%q", out)
	}
	if out, _, _ = loginRun(t, environ, nil, "", "config", "reset", "defaultThinkingLevel"); out != "Reset defaultThinkingLevel = high\n" {
		t.Fatalf("%q", out)
	}
	if b, _ := os.ReadFile(file); string(b) != "temperature: -1\n" {
		t.Fatalf("%q", b)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"set", "defaultThinkingLevel", "bogus"}, `gopi config: defaultThinkingLevel: "bogus" is not allowed; use one of minimal, low, medium, high, xhigh` + "\n"},
		{[]string{"set", "compaction.enabled", "maybe"}, `gopi config: compaction.enabled: "maybe" is not a boolean; use true/false, yes/no, on/off or 1/0` + "\n"},
		{[]string{"set", "enabledModels", "x"}, `gopi config: enabledModels: "x" is not a JSON array; write it as ["a", "b"]` + "\n"},
		{[]string{"get", "nope"}, `gopi config: unknown setting "nope"; 'gopi config list' shows the keys` + "\n"},
		{[]string{"frob"}, `gopi config: unknown config action "frob"; use one of list, get, set, reset, path, edit (see 'gopi config --help')` + "\n"},
	} {
		_, errOut, code := loginRun(t, environ, nil, "", append([]string{"config"}, c.args...)...)
		if code != exitError || errOut != c.want {
			t.Errorf("%v: exit %d %q, want %q", c.args, code, errOut, c.want)
		}
	}

	out, _, _ = loginRun(t, environ, nil, "", "config")
	if !strings.HasPrefix(out, "Settings:\n\n[general]\n") || !strings.Contains(out, "\n  defaultThinkingLevel = high (minimal|low|medium|high|xhigh)\n") || !strings.Contains(out, "\n  temperature = -1 (number)\n") {
		t.Fatalf("%s", out)
	}
	if out, _, _ = loginRun(t, environ, nil, "", "config", "path"); out != filepath.Dir(file)+"\n" {
		t.Fatalf("%q", out)
	}
}

// gopi config edit runs $EDITOR on config.yml and reports what the schema
// rejects in the edited file.
func TestConfigEdit(t *testing.T) {
	environ := isolatedEnviron(t)
	file := filepath.Join(homeOf(environ), ".gopi", "agent", "config.yml")
	script := filepath.Join(t.TempDir(), "ed")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf 'defaultThinkingLevel: loud\\n' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := loginRun(t, append(environ, "EDITOR="+script, "VISUAL="), nil, "", "config", "edit")
	if code != exitError || !strings.Contains(errOut, file+`: defaultThinkingLevel: expected one of minimal, low, medium, high, xhigh, got "loud"`) {
		t.Fatalf("exit %d: %q", code, errOut)
	}
}
