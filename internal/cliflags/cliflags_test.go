package cliflags

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func sampleSet() (*pflag.FlagSet, *int, *time.Duration) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	var n int
	var d time.Duration
	NonNegIntVarP(fs, &n, "context", "C", 0, "lines of context")
	fs.DurationVar(&d, "timeout", time.Second, "give up after `DUR`")
	Bound(fs, "timeout", 1, "--timeout needs a positive duration, got %q")
	fs.String("script", "", "run a script")
	ValueName(fs, "script", "FILE")
	fs.BoolP("quiet", "q", false, "print nothing")
	return fs, &n, &d
}

func TestParse(t *testing.T) {
	fs, n, d := sampleSet()
	if err := Parse(fs, []string{"a", "-C3", "b", "--timeout=2s", "--", "-q"}); err != nil {
		t.Fatal(err)
	}
	if *n != 3 || *d != 2*time.Second || strings.Join(fs.Args(), ",") != "a,b,-q" {
		t.Errorf("got n=%d d=%v args=%v", *n, *d, fs.Args())
	}
	for args, want := range map[string]string{
		"-C -1":        `-C/--context needs a whole number ≥ 0, got "-1"`,
		"-C x":         `-C/--context needs a whole number ≥ 0, got "x"`,
		"--timeout 0s": `--timeout needs a positive duration, got "0s"`,
		"--nope":       "unknown flag: --nope",
	} {
		fs, _, _ := sampleSet()
		err := Parse(fs, strings.Fields(args))
		var ue *UsageError
		if !errors.As(err, &ue) || err.Error() != want {
			t.Errorf("%s: got %v, want the usage error %q", args, err, want)
		}
	}
}

func TestHelpAndTable(t *testing.T) {
	fs, _, _ := sampleSet()
	want := "  -C, --context int            lines of context\n" +
		"  -q, --quiet                  print nothing\n" +
		"      --script FILE            run a script\n" +
		"      --timeout DUR            give up after DUR\n"
	if got := Help(fs); got != want {
		t.Errorf("Help:\n%s\nwant:\n%s", got, want)
	}
	fs, _, _ = sampleSet()
	want = "  -C, --context VALUE  lines of context\n" +
		"  -q, --quiet          print nothing\n" +
		"      --script PATH    run a script\n" +
		"      --timeout VALUE  give up after `DUR`\n"
	if got := Table(fs, map[string]string{"script": "PATH"}); got != want {
		t.Errorf("Table:\n%s\nwant:\n%s", got, want)
	}
}

func sampleProgram() Program {
	root := pflag.NewFlagSet("p", pflag.ContinueOnError)
	root.BoolP("print", "p", false, "print")
	grep, _, _ := sampleSet()
	sub := pflag.NewFlagSet("g grep", pflag.ContinueOnError)
	sub.Bool("apply", false, "write it's changes")
	return Program{Name: "p", Commands: []Command{
		{Flags: root},
		{Path: []string{"completion"}, Flags: pflag.NewFlagSet("c", pflag.ContinueOnError), Summary: "scripts", Args: []string{"bash", "fish"}},
		{Path: []string{"g"}, Summary: "a group"},
		{Path: []string{"g", "grep"}, Flags: sub, Summary: "-grep in g"},
		{Path: []string{"grep"}, Flags: grep, Summary: "search"},
	}}
}

func TestCompletionScripts(t *testing.T) {
	var bash, fish bytes.Buffer
	WriteBash(&bash, sampleProgram(), false)
	WriteFish(&fish, sampleProgram())
	for _, want := range []string{
		`compgen -W "completion g grep --print -p"`,
		"\tgrep) opts=\"--context -C --quiet -q --script --timeout\" ;;\n",
		"\tg)\n", "\t\tgrep) opts=\"--apply\" ;;\n",
		"\tcompletion) COMPREPLY=($(compgen -W \"bash fish\" -- \"$cur\")); return ;;\n",
		"complete -o default -F _p p\n",
	} {
		if !strings.Contains(bash.String(), want) {
			t.Errorf("bash script lacks %q:\n%s", want, bash.String())
		}
	}
	if strings.Contains(bash.String(), "\tg) opts") {
		t.Error("bash: a group got a flag list of its own")
	}
	for _, want := range []string{
		"complete -c p -n __fish_use_subcommand -a g -d 'a group'\n",
		"complete -c p -n '__fish_seen_subcommand_from g; and not __fish_seen_subcommand_from grep' -a grep\n",
		"complete -c p -n '__fish_seen_subcommand_from completion' -a 'bash fish'\n",
		"complete -c p -n '__fish_seen_subcommand_from grep; and not __fish_seen_subcommand_from g' -l script -r -F -d 'run a script'\n",
		"complete -c p -n '__fish_seen_subcommand_from g; and __fish_seen_subcommand_from grep' -l apply -d 'write it\\'s changes'\n",
		"complete -c p -n '__fish_use_subcommand' -l print -s p -d 'print'\n",
	} {
		if !strings.Contains(fish.String(), want) {
			t.Errorf("fish script lacks %q:\n%s", want, fish.String())
		}
	}
}

func TestMan(t *testing.T) {
	var b bytes.Buffer
	WriteMan(&b, sampleProgram(), ManPage{Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Version: "1.0-rc",
		Name: "p \\- n\n", Synopsis: "S\n", Description: "D\n", OptionsIntro: "O\n", SeeAlso: "A\n"})
	want := ".TH P 1 \"2026-01-02\" \"p 1.0\\-rc\" \"User Commands\"\n.SH NAME\np \\- n\n.SH SYNOPSIS\nS\n.SH DESCRIPTION\nD\n" +
		".SH OPTIONS\nO\n.TP\n\\fB\\-p\\fR, \\fB\\-\\-print\\fR\nprint\n.SH COMMANDS\n.SS p completion\nscripts\n" +
		".SS p g grep\n\\-grep in g\n.TP\n\\fB\\-\\-apply\\fR\nwrite it's changes\n.SS p grep\nsearch\n"
	if got := b.String(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, ".SH SEE ALSO\nA\n") {
		t.Errorf("man page:\n%s\nwant it to start:\n%s", got, want)
	}
}

func TestRoffEscape(t *testing.T) {
	for in, want := range map[string]string{
		`a-b\c`: `a\-b\ec`, "≥ 0": `\[u2265] 0`, ".dot": `\&.dot`, "'q": `\&'q`,
	} {
		if got := RoffEscape(in); got != want {
			t.Errorf("RoffEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
