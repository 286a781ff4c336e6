package main

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/spf13/pflag"
)

// runIsolated runs gopi with args in an empty directory and an empty home.
func runIsolated(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runIsolatedWith(t, func(*cliEnv) {}, args...)
}

// runIsolatedWith is runIsolated with the environment changed by set
// first.
func runIsolatedWith(t *testing.T, set func(*cliEnv), args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
	set(env)
	code = run(context.Background(), env, args)
	return out.String(), errb.String(), code
}

// sampleValue is a value each flag of the test below takes: one of its
// type, or one its pflag.Value accepts.
func sampleValue(f *pflag.Flag) []string {
	switch f.Name {
	case "sort", "sortr": // grep: a sort key
		return []string{"path"}
	case "exec", "exec-batch": // find: a command line up to ';'
		return []string{"echo", ";"}
	}
	switch f.Value.Type() {
	case "bool", "count":
		return nil
	case "int", "float64":
		return []string{"1"}
	case "duration":
		return []string{"1s"}
	}
	return []string{"x"}
}

// helpFlag matches a flag line of --help: "  -A, --after-context N  …" or
// "      --json  …".
var helpFlag = regexp.MustCompile(`(?m)^  (?:-(\S), |    )--([A-Za-z0-9][A-Za-z0-9-]*)\b`)

// Every flag the completions and the man page declare for a command is one
// the command's own parser takes, in its long and its short form, with a
// value of its type; and the flags --help lists (rendered from the parser's
// set) are exactly the declared ones.
func TestFlagSetsAreTheParsers(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range allFlagSets() {
		name := strings.Join(c.Path, " ")
		if name == "" {
			name = "(agent)"
		}
		if c.Flags == nil || !c.Flags.HasFlags() {
			continue // completion, man, version; the ast group
		}
		t.Run(name, func(t *testing.T) {
			help, errOut, code := runIsolated(t, append(slices.Clone(c.Path), "--help")...)
			if code != 0 {
				t.Fatalf("--help: exit %d: %s", code, errOut)
			}
			var listed []string
			for _, m := range helpFlag.FindAllStringSubmatch(help, -1) {
				listed = append(listed, "--"+m[2])
				if m[1] != "" {
					listed = append(listed, "-"+m[1])
				}
			}
			declared := cliflags.Words(c.Flags)
			slices.Sort(listed)
			slices.Sort(declared)
			if !slices.Equal(listed, declared) {
				t.Errorf("--help lists %v\ndeclared for completion: %v", listed, declared)
			}
			c.Flags.VisitAll(func(f *pflag.Flag) {
				if f.Name == "help" {
					return
				}
				forms := [][]string{append([]string{"--" + f.Name}, sampleValue(f)...)}
				if f.Shorthand != "" {
					forms = append(forms, append([]string{"-" + f.Shorthand}, sampleValue(f)...))
				}
				for _, form := range forms {
					args := append(append(slices.Clone(c.Path), form...), "--help")
					out, errOut, code := runIsolated(t, args...)
					if code != 0 || out != help {
						t.Errorf("%q: exit %d, stderr %q; want the help", args, code, errOut)
					}
				}
			})
		})
	}
}

// Numbers and durations are typed flags: a value of the wrong kind is a
// usage error naming the flag as soon as the arguments are parsed, before
// any other check.
func TestFlagValuesAreTyped(t *testing.T) {
	types := map[string]map[string]string{
		"ai": {"max-tokens": "int", "retries": "int", "retry-delay": "duration",
			"connect-timeout": "duration", "first-byte-timeout": "duration", "idle-timeout": "duration"},
		"ast grep": {"context": "int", "offset": "int", "limit": "int", "timeout": "duration"},
		"ast edit": {"max-files": "int", "timeout": "duration"},
	}
	for _, c := range allFlagSets() {
		for flag, want := range types[strings.Join(c.Path, " ")] {
			if f := c.Flags.Lookup(flag); f == nil || f.Value.Type() != want {
				t.Errorf("gopi %s --%s: declared as %v, want %s", strings.Join(c.Path, " "), flag, f, want)
			}
		}
	}

	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		args    []string
		wantErr string
	}{
		// No -m and no prompt: the flag is refused before those are missed.
		{[]string{"ai", "--max-tokens", "x"}, `gopi ai: --max-tokens needs a whole number ≥ 0, got "x" (see 'gopi ai --help')`},
		{[]string{"ai", "--retries=-1"}, `gopi ai: --retries needs a whole number ≥ 0, got "-1"`},
		{[]string{"ai", "--retry-delay", "0"}, `gopi ai: --retry-delay "0" is not a positive duration such as 500ms or 2s`},
		{[]string{"ai", "--idle-timeout", "soon", "hello"}, `gopi ai: --idle-timeout "soon" is not a duration such as 500ms or 30s (0 = no limit)`},
		{[]string{"ast", "grep", "--limit", "all"}, `gopi ast grep: --limit needs a whole number ≥ 0, got "all" (see 'gopi ast grep --help')`},
		{[]string{"ast", "grep", "-C-2", "-p", "f($A)"}, `gopi ast grep: -C/--context needs a whole number ≥ 0, got "-2"`},
		{[]string{"ast", "grep", "--timeout=0"}, `gopi ast grep: --timeout needs a positive duration like 5s, got "0"`},
		{[]string{"ast", "edit", "--max-files", "many"}, `gopi ast edit: --max-files needs a whole number ≥ 0, got "many"`},
		// Errors pflag words itself are usage errors too.
		{[]string{"tokens", "--bogus"}, `gopi tokens: unknown flag: --bogus (see 'gopi tokens --help')`},
		{[]string{"tokens", "--encoding"}, `gopi tokens: flag needs an argument: --encoding (see 'gopi tokens --help')`},
		{[]string{"tokens", "--json=maybe"}, `gopi tokens: invalid argument "maybe" for "--json" flag`},
	} {
		out, errOut, code := runIsolated(t, tc.args...)
		if code != exitError || out != "" || !strings.HasPrefix(errOut, tc.wantErr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.wantErr)
		}
	}
}
