package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/native/rure"
)

// Build facts, set by build.sh with -ldflags "-X main.version=… -X main.commit=…".
// A plain `go build` leaves them empty and versionInfo falls back to what the
// Go toolchain stamped into the binary (VCS revision and time).
var (
	version    = "dev" // git describe --tags of the build
	commit     = ""    // full commit hash
	buildDate  = ""    // UTC, RFC 3339
	cpuVariant = ""    // release variant name: baseline, modern, or empty
)

// buildInfo is what `gopi --version` reports.
type buildInfo struct {
	Version   string
	Commit    string
	Date      string
	GoVersion string
	Target    string // GOOS/GOARCH
	CPU       string // variant name and Go's instruction-set level, e.g. "modern (GOAMD64=v3)"
	Regex     string // "native (Rust regex)" or "pure Go (Go regexp)"
	AST       string // "native (ast-grep, N languages)" or "unavailable (built without the native core)"
}

// versionInfo collects the build facts from the link-time variables, the
// Go build settings and the native core.
func versionInfo() buildInfo {
	bi := buildInfo{
		Version:   version,
		Commit:    commit,
		Date:      buildDate,
		GoVersion: runtime.Version(),
		Target:    runtime.GOOS + "/" + runtime.GOARCH,
	}
	level := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if bi.Commit == "" {
					bi.Commit = s.Value
				}
			case "vcs.time":
				if bi.Date == "" {
					bi.Date = s.Value
				}
			case "GOAMD64", "GOARM64", "GOARM":
				level = s.Key + "=" + s.Value
			}
		}
	}
	bi.CPU = cpuVariant
	switch {
	case bi.CPU == "" && level == "":
		bi.CPU = "default"
	case bi.CPU == "":
		bi.CPU = level
	case level != "":
		bi.CPU += " (" + level + ")"
	}
	if bi.Commit == "" {
		bi.Commit = "unknown"
	}
	if bi.Date == "" {
		bi.Date = "unknown"
	}
	if rure.Available {
		bi.Regex = "native (Rust regex)"
	} else {
		bi.Regex = "pure Go (Go regexp; built without the native core)"
	}
	if astgrep.Available {
		bi.AST = fmt.Sprintf("native (ast-grep, %d languages)", len(astgrep.Languages()))
	} else {
		bi.AST = "unavailable (built without the native core)"
	}
	return bi
}

// String renders the report: the first line is "gopi VERSION", as before,
// so scripts that read only that line keep working.
func (bi buildInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gopi %s\n", bi.Version)
	fmt.Fprintf(&b, "commit:  %s\n", bi.Commit)
	fmt.Fprintf(&b, "built:   %s\n", bi.Date)
	fmt.Fprintf(&b, "go:      %s\n", bi.GoVersion)
	fmt.Fprintf(&b, "target:  %s\n", bi.Target)
	fmt.Fprintf(&b, "cpu:     %s\n", bi.CPU)
	fmt.Fprintf(&b, "regex:   %s\n", bi.Regex)
	fmt.Fprintf(&b, "ast:     %s\n", bi.AST)
	return b.String()
}

func runVersion(_ context.Context, env *cliEnv, args []string) int {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprintln(env.stdout, "Usage: gopi version\n\nPrint the version, commit, the commit's date (shown as \"built\", so that a\nrebuild of a commit is identical), Go version, target, CPU variant and which\nengines are native.")
		return exitMatch
	}
	if len(args) > 0 {
		return fail(env, "version", usagef("takes no arguments (got %q)", args[0]))
	}
	fmt.Fprint(env.stdout, versionInfo().String())
	return exitMatch
}
