package buildinfo

import (
	"os"
	"path/filepath"
	"strings"
)

// How a gopi binary got where it is.
const (
	InstallClone   = "clone"   // bin/gopi of a source checkout (make)
	InstallMake    = "make"    // copied by `make install`, or from a release archive, into a bin directory
	InstallGo      = "go"      // `go install` (a module version in the build information)
	InstallUnknown = "unknown" // anywhere else
)

// Module is gopi's Go module path.
const Module = "github.com/gopi-agent/gopi"

// Install describes where a binary is installed and how to update it.
type Install struct {
	Method string // one of the Install* kinds
	Exe    string // the running binary
	Clone  string // the source checkout, for InstallClone
	Steps  []string
}

// DescribeInstall works out how the binary at exe was installed, from its
// path (a bin/gopi whose parent holds gopi's go.mod is a clone's build),
// and what to run to update it. moduleVersion is the main module's version
// in the Go build information ("(devel)" or "" for a local build). It
// reads only the files beside exe; it never touches the network.
func DescribeInstall(exe, moduleVersion string, info Info) Install {
	in := Install{Method: InstallUnknown, Exe: exe}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	dir := filepath.Dir(exe)
	if filepath.Base(dir) == "bin" && isGopiClone(filepath.Dir(dir)) {
		in.Method, in.Clone = InstallClone, filepath.Dir(dir)
		in.Steps = []string{"cd " + in.Clone, "git pull", "make", "make install   # when you use a copy on your PATH"}
		return in
	}
	if moduleVersion != "" && moduleVersion != "(devel)" {
		in.Method = InstallGo
		in.Steps = []string{"go install " + Module + "/cmd/gopi@latest   # needs the native library: a clone and make are the supported way"}
		return in
	}
	if filepath.Base(dir) == "bin" {
		in.Method = InstallMake
		in.Steps = []string{
			"from a clone: git pull && make && make install PREFIX=" + filepath.Dir(dir),
			"from a release: download gopi-VERSION-" + strings.ReplaceAll(info.Target, "/", "-") + "*.tar.gz and its SHA256SUMS, check it (sha256sum -c SHA256SUMS) and put its gopi in " + dir,
		}
		return in
	}
	in.Steps = []string{"replace " + exe + " with a newer build: from a clone, git pull && make; or a release archive for " + info.Target}
	return in
}

// isGopiClone reports whether dir holds gopi's source (its go.mod names
// the module).
func isGopiClone(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(first) == "module "+Module
}
