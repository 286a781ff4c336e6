package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/cliflags"
)

// The completion scripts and the man page come from the flag definitions
// the commands parse with: every command's flags appear, and bash really
// completes with the script.
func TestCompletionAndMan(t *testing.T) {
	gen := func(args ...string) string {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}
		if code := run(context.Background(), env, args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	bash, fish, man := gen("completion", "bash"), gen("completion", "fish"), gen("man")
	zsh := gen("completion", "zsh")
	// fish: ripgrep's flags are offered after `gopi grep`, not `gopi ast grep`.
	for _, line := range strings.Split(fish, "\n") {
		if strings.Contains(line, " -l sortr ") && !strings.Contains(line, "not __fish_seen_subcommand_from ast") {
			t.Errorf("fish offers grep's --sortr after `gopi ast grep` too: %s", line)
		}
	}
	var covered []string
	for _, c := range allFlagSets() {
		name := strings.Join(c.Path, " ")
		if c.Flags == nil {
			continue // the ast group
		}
		covered = append(covered, name)
		for _, w := range cliflags.Words(c.Flags) {
			if !strings.Contains(bash, w) || !strings.Contains(zsh, w) {
				t.Errorf("%s: %s missing from the bash/zsh script", name, w)
			}
			if strings.HasPrefix(w, "--") && !strings.Contains(fish, "-l "+w[2:]) {
				t.Errorf("%s: %s missing from the fish script", name, w)
			}
			if strings.HasPrefix(w, "--") && !strings.Contains(man, `\fB\-\-`+cliflags.RoffEscape(w[2:])+`\fR`) {
				t.Errorf("%s: %s missing from the man page", name, w)
			}
		}
	}
	for _, want := range []string{"grep", "find", "ast run", "ast scan", "tokens"} {
		if !strings.Contains(strings.Join(covered, ","), want) {
			t.Errorf("command %q not covered", want)
		}
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script := filepath.Join(t.TempDir(), "gopi.bash")
	if err := os.WriteFile(script, []byte(bash), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, want string }{
		{"gopi gre", "grep"},
		{"gopi grep --vim", "--vimgrep"},
		{"gopi find --chan", "--changed-within"},
		{"gopi ast sc", "scan"},
		{"gopi ast run --glo", "--globs"},
		{"gopi completion fi", "fish"},
	} {
		cmd := exec.Command("bash", "-c", `source "$1"; COMP_WORDS=($2); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _gopi; echo "${COMPREPLY[*]}"`, "x", script, tc.line)
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != tc.want {
			t.Errorf("%q completes to %q (%v), want %q", tc.line, out, err, tc.want)
		}
	}
	if _, err := exec.LookPath("groff"); err == nil {
		page := filepath.Join(t.TempDir(), "gopi.1")
		if err := os.WriteFile(page, []byte(man), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z", page).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("groff warnings: %s %v", out, err)
		}
	}
}
