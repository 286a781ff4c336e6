package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/spf13/pflag"
)

func init() {
	// Registered here: the generators read the commands table, which a
	// literal entry in it could not refer to (an initialisation cycle).
	commands["completion"] = command{"print a shell completion script: gopi completion bash|zsh|fish", runCompletion}
	commands["man"] = command{"print the gopi(1) man page (roff), e.g. gopi man > gopi.1", runMan}
	noConfig["completion"], noConfig["man"] = true, true
}

// commandFlagSets are the flag sets of the commands that register
// themselves from their own file (gopi commit, config, stats, …), for the
// completion scripts, the man page and docs/cli.md.
var commandFlagSets = map[string]func() *pflag.FlagSet{}

// astSummaries describe the subcommands of `gopi ast` in the man page.
var astSummaries = map[string]string{"run": "ast-grep's run: search, or rewrite with -r (-U applies)", "scan": "ast-grep's scan: run YAML rules",
	"grep": "structural search", "edit": "structural rewrite (preview; --apply writes)"}

// allFlagSets returns every command's flags from the definitions the
// commands parse with: each command's pflag set, built by the same
// function its run function calls. The agent itself comes first; `ast`
// is a group (no flag set) followed by its subcommands.
func allFlagSets() []cliflags.Command {
	out := []cliflags.Command{{Flags: newAgentFlagSet(&agentFlags{})}}
	var ex []string
	sets := map[string]func() *pflag.FlagSet{
		"acp":     func() *pflag.FlagSet { return newACPFlagSet(&acpCLI{}) },
		"ai":      func() *pflag.FlagSet { return newAIFlagSet(&aiCLI{}) },
		"edit":    func() *pflag.FlagSet { return newEditFlagSet(&editCLI{}) },
		"find":    func() *pflag.FlagSet { return newFindFlagSet(&findCLI{}, &ex) },
		"grep":    func() *pflag.FlagSet { return newGrepFlagSet(&grepCLI{}) },
		"index":   func() *pflag.FlagSet { return newIndexFlagSet(&indexCLI{}) },
		"mockllm": func() *pflag.FlagSet { return newMockLLMFlagSet(&mockllmCLI{}) },
		"models":  func() *pflag.FlagSet { return newModelsFlagSet(&modelsCLI{}) },
		"login":   func() *pflag.FlagSet { return newLoginFlagSet(&loginCLI{}) },
		"logout":  func() *pflag.FlagSet { return newLogoutFlagSet(&logoutCLI{}) },
		"read":    func() *pflag.FlagSet { return newReadFlagSet(&toolCallCLI{}) },
		"ssh":     func() *pflag.FlagSet { return newSSHFlagSet(&sshCLI{}) },
		"tokens":  func() *pflag.FlagSet { return newTokensFlagSet(&tokensCLI{}) },
		"tool":    func() *pflag.FlagSet { return newToolFlagSet(&toolCallCLI{}) },
	}
	for name, f := range commandFlagSets {
		sets[name] = f
	}
	for _, name := range sortedCommands() {
		c := cliflags.Command{Path: []string{name}, Summary: commands[name].summary}
		switch {
		case name == "ast":
			out = append(out, c,
				cliflags.Command{Path: []string{"ast", "run"}, Flags: newASTRunFlagSet(&astRunCLI{}, false)},
				cliflags.Command{Path: []string{"ast", "scan"}, Flags: newASTRunFlagSet(&astRunCLI{}, true)},
				cliflags.Command{Path: []string{"ast", "grep"}, Flags: newASTFlagSet(&astCLI{}, false)},
				cliflags.Command{Path: []string{"ast", "edit"}, Flags: newASTFlagSet(&astCLI{}, true)})
			for i := len(out) - 4; i < len(out); i++ {
				out[i].Summary = astSummaries[out[i].Path[1]]
			}
			continue
		case sets[name] != nil:
			c.Flags = sets[name]()
		default: // completion, man, version: no flags of their own
			c.Flags = pflag.NewFlagSet(name, pflag.ContinueOnError)
		}
		if name == "completion" {
			c.Args = []string{"bash", "zsh", "fish"}
		}
		out = append(out, c)
	}
	return out
}

func runCompletion(_ context.Context, env *cliEnv, args []string) int {
	if len(args) != 1 {
		return fail(env, "completion", cliflags.Usagef("give the shell: gopi completion bash|zsh|fish"))
	}
	switch args[0] {
	case "bash":
		cliflags.WriteBash(env.stdout, gopiProgram(), false)
	case "zsh":
		cliflags.WriteBash(env.stdout, gopiProgram(), true)
	case "fish":
		cliflags.WriteFish(env.stdout, gopiProgram())
	case "-h", "--help":
		fmt.Fprintln(env.stdout, "Usage: gopi completion bash|zsh|fish\n\nPrint a completion script for the shell, generated from gopi's flag definitions.\nbash: source <(gopi completion bash); zsh: source <(gopi completion zsh);\nfish: gopi completion fish > ~/.config/fish/completions/gopi.fish")
	default:
		return fail(env, "completion", cliflags.Usagef("unknown shell %q: use bash, zsh or fish", args[0]))
	}
	return exitMatch
}

// gopiProgram is gopi's command list for the generators.
func gopiProgram() cliflags.Program { return cliflags.Program{Name: "gopi", Commands: allFlagSets()} }

func runMan(_ context.Context, env *cliEnv, args []string) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(env.stdout, "Usage: gopi man\n\nPrint the gopi(1) man page in roff, generated from gopi's flag definitions:\ngopi man > gopi.1 && man -l gopi.1")
			return exitMatch
		}
		return fail(env, "man", cliflags.Usagef("gopi man takes no arguments"))
	}
	writeMan(env.stdout, time.Now())
	return exitMatch
}

// writeMan writes the man page: every command with its flags.
func writeMan(w io.Writer, now time.Time) {
	cliflags.WriteMan(w, gopiProgram(), cliflags.ManPage{
		Date:         now,
		Version:      version,
		Name:         "gopi \\- terminal coding agent with ripgrep, fd and ast-grep style search commands\n",
		Synopsis:     ".B gopi\n[\\fIFLAGS\\fR] [\\fIMESSAGE\\fR...]\n.br\n.B gopi\n\\fICOMMAND\\fR [\\fIFLAGS\\fR] [\\fIARGS\\fR...]\n",
		Description:  "Without a command gopi runs the agent; each command below is a tool of its own.\nExit status, for the search commands: 0 when something matched, 1 when nothing did, 2 on an error.\n",
		OptionsIntro: "Flags of the agent (gopi without a command):\n",
		SeeAlso:      ".BR rg (1),\n.BR fd (1),\n.BR ast-grep (1)\n",
	})
}
