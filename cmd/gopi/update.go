package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/internal/buildinfo"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["update"] = command{"say how this gopi was installed and what to run to update it (never downloads)", runUpdate}
	commandFlagSets["update"] = func() *pflag.FlagSet { return newUpdateFlagSet(&updateCLI{}) }
	noConfig["update"] = true
}

// updateCLI holds the flags of `gopi update`.
type updateCLI struct {
	check, force, help bool
}

// newUpdateFlagSet declares gopi update's flags on c.
func newUpdateFlagSet(c *updateCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("update", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVarP(&c.check, "check", "c", false, "accepted for omp: gopi update only ever checks")
	fs.BoolVarP(&c.force, "force", "f", false, "accepted for omp: gopi update installs nothing")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const updateHelp = `Usage: gopi update

Print this gopi's version and how it was installed — built in a clone
(bin/gopi beside gopi's go.mod), copied into a bin directory by make
install or from a release archive, or go install — and the commands that
update it. gopi update downloads and installs nothing: gopi is built from
source with its native library, so updating is the user's step.

Flags:
`

// runUpdate implements `gopi update`.
func runUpdate(_ context.Context, env *cliEnv, args []string) int {
	var c updateCLI
	fs := newUpdateFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "update", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, updateHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 0 {
		return fail(env, "update", cliflags.Usagef("gopi update takes no arguments, got %q", fs.Arg(0)))
	}
	stamp := linkStamp()
	if env.build != nil {
		stamp = *env.build
	}
	info := buildinfo.Collect(stamp)
	exe, err := os.Executable()
	if err != nil {
		return fail(env, "update", fmt.Errorf("cannot tell where this gopi is: %w", err))
	}
	if env.exe != "" {
		exe = env.exe
	}
	modVersion := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		modVersion = bi.Main.Version
	}
	in := buildinfo.DescribeInstall(exe, modVersion, info)
	fmt.Fprintf(env.stdout, "gopi %s (commit %s, built %s)\n", info.Version, shortCommit(info.Commit), info.Date)
	switch in.Method {
	case buildinfo.InstallClone:
		fmt.Fprintf(env.stdout, "Installed: built in the clone %s (%s)\n", in.Clone, in.Exe)
	case buildinfo.InstallMake:
		fmt.Fprintf(env.stdout, "Installed: %s (by make install, or from a release archive)\n", in.Exe)
	case buildinfo.InstallGo:
		fmt.Fprintf(env.stdout, "Installed: %s (by go install)\n", in.Exe)
	default:
		fmt.Fprintf(env.stdout, "Installed: %s\n", in.Exe)
	}
	fmt.Fprintln(env.stdout, "gopi update downloads nothing. To update:")
	for _, s := range in.Steps {
		fmt.Fprintf(env.stdout, "  %s\n", s)
	}
	return exitMatch
}

// shortCommit is the first 12 characters of a commit hash.
func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
