package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/depcheck"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["setup"] = command{"check what optional features need (python, stt) and say what to install; installs nothing", runSetup}
	commandFlagSets["setup"] = func() *pflag.FlagSet { return newSetupFlagSet(&setupCLI{}) }
}

// setupCLI holds the flags of `gopi setup`.
type setupCLI struct {
	check, json, help bool
}

// newSetupFlagSet declares gopi setup's flags on c.
func newSetupFlagSet(c *setupCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("setup", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVarP(&c.check, "check", "c", false, "only check (what gopi setup does anyway: it installs nothing)")
	fs.BoolVar(&c.json, "json", false, "print the status as JSON")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const setupHelp = `Usage: gopi setup COMPONENT [--json]

Check whether what an optional feature needs is installed, and say what to
install when it is not. gopi setup never installs anything itself (omp's
installs openai-whisper with pip): run the commands it prints.

Components:
  python   a Python 3 interpreter on PATH that runs (for the eval tool,
           which comes with issue 37)
  stt      speech-to-text: a recorder (sox, ffmpeg or arecord), Python and
           its openai-whisper package (settings stt.*)

The exit status is 0 when everything is there, 1 when something is missing.

Flags:
`

// runSetup implements `gopi setup`.
func runSetup(ctx context.Context, env *cliEnv, args []string) int {
	var c setupCLI
	fs := newSetupFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "setup", err)
	}
	if c.help || fs.NArg() == 0 {
		fmt.Fprint(env.stdout, setupHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 1 {
		return fail(env, "setup", cliflags.Usagef("gopi setup takes one component, got %d", fs.NArg()))
	}
	e := depcheck.Env{Environ: env.cfg.Env.Environ()}
	switch fs.Arg(0) {
	case "python":
		py := depcheck.CheckPython(ctx, e)
		if c.json {
			if err := writeJSON(env.stdout, py); err != nil {
				return fail(env, "setup", err)
			}
		} else if py.Path == "" {
			fmt.Fprintln(env.stderr, "Python not found: install Python 3.8 or later (sudo apt install python3) and put it on PATH")
		} else if py.Available {
			fmt.Fprintf(env.stdout, "Python: %s\nPython execution is ready\n", py.Path)
		} else {
			fmt.Fprintf(env.stderr, "Python: %s\nthe interpreter failed to run a trivial program; reinstall it\n", py.Path)
		}
		if !py.Available {
			return exitNoMatch
		}
	case "stt":
		s := depcheck.CheckSTT(ctx, e)
		if c.json {
			if err := writeJSON(env.stdout, s); err != nil {
				return fail(env, "setup", err)
			}
		} else {
			fmt.Fprintln(env.stdout, "Speech-to-text dependencies:")
			for _, p := range []struct {
				name string
				part depcheck.Part
			}{{"Recorder", s.Recorder}, {"Python", s.Python}, {"Whisper", s.Whisper}} {
				state := "missing"
				if p.part.Available {
					state = "ok"
					if p.part.Tool != "" {
						state += " (" + p.part.Tool + ")"
					}
				}
				fmt.Fprintf(env.stdout, "  %-9s %s\n", p.name+":", state)
				if !p.part.Available {
					fmt.Fprintf(env.stdout, "    -> %s\n", p.part.Hint)
				}
			}
			if s.Ready() {
				fmt.Fprintln(env.stdout, "Speech-to-text is ready")
			}
		}
		if !s.Ready() {
			return exitNoMatch
		}
	default:
		return fail(env, "setup", cliflags.Usagef("unknown component %q; use python or stt", fs.Arg(0)))
	}
	return exitMatch
}
