package main

import (
	"context"
	"fmt"

	"github.com/gopi-agent/gopi/internal/buildinfo"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// Build facts, set by build.sh with -ldflags "-X main.version=… -X main.commit=…".
// A plain `go build` leaves them empty and buildinfo.Collect falls back to what the
// Go toolchain stamped into the binary (VCS revision and time).
var (
	version    = "dev" // git describe --tags of the build
	commit     = ""    // full commit hash
	buildDate  = ""    // UTC, RFC 3339
	cpuVariant = ""    // release variant name: baseline, modern, or empty
)

// linkStamp returns the build facts linked into the binary.
func linkStamp() buildinfo.Stamp {
	return buildinfo.Stamp{Version: version, Commit: commit, Date: buildDate, CPUVariant: cpuVariant}
}

func runVersion(_ context.Context, env *cliEnv, args []string) int {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprintln(env.stdout, "Usage: gopi version\n\nPrint the version, commit, the commit's date (shown as \"built\", so that a\nrebuild of a commit is identical), Go version, target, CPU variant and which\nengines are native.")
		return exitMatch
	}
	if len(args) > 0 {
		return fail(env, "version", cliflags.Usagef("takes no arguments (got %q)", args[0]))
	}
	stamp := linkStamp()
	if env.build != nil {
		stamp = *env.build
	}
	fmt.Fprint(env.stdout, buildinfo.Collect(stamp).String())
	return exitMatch
}
