// Package buildinfo collects what `gopi version` reports about a
// binary: the version stamped at link time, the commit and its date (from
// the stamp or the Go toolchain's VCS settings), the Go version, target
// and CPU level, and which engines of the native core are linked in.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/native/rure"
)

// Info is what `gopi --version` reports.
type Info struct {
	Version   string
	Commit    string
	Date      string
	GoVersion string
	Target    string // GOOS/GOARCH
	CPU       string // variant name and Go's instruction-set level, e.g. "modern (GOAMD64=v3)"
	Regex     string // "native (Rust regex)" or "pure Go (Go regexp)"
	AST       string // "native (ast-grep, N languages)" or "unavailable (built without the native core)"
}

// Stamp is what the build stamped into the binary at link time (empty
// when a plain `go build` left it out).
type Stamp struct {
	Version    string // git describe --tags of the build
	Commit     string // full commit hash
	Date       string // UTC, RFC 3339
	CPUVariant string // release variant name: baseline, modern, or empty
}

// Collect gathers the build facts from the link-time stamp, the Go build
// settings (VCS revision and time when the stamp has none) and the native
// core.
func Collect(s Stamp) Info {
	bi := Info{
		Version:   s.Version,
		Commit:    s.Commit,
		Date:      s.Date,
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
	bi.CPU = s.CPUVariant
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
func (bi Info) String() string {
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
