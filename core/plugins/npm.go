package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// DefaultNPMTimeout bounds one npm fetch unless NPM.Timeout says
// otherwise (the same bound as a git clone).
const DefaultNPMTimeout = DefaultGitTimeout

// NPM runs the system npm to fetch plugin packages. The registry and any
// credentials come from the user's npm configuration (.npmrc and the
// npm_config_* variables of Environ).
type NPM struct {
	Program string        // the npm executable; "" looks "npm" up in PATH
	Timeout time.Duration // per fetch; 0 is DefaultNPMTimeout
	Environ []string      // the environment npm runs with (nil: the process's)
}

// ErrNoNPM is the error when npm cannot be found.
var ErrNoNPM = errors.New("npm is not installed or not in PATH: install Node.js with npm (https://nodejs.org, or your system's nodejs/npm package) to install plugins from npm sources")

// npmName is an npm package name, optionally scoped; it may not start
// with '-', '.' or '_' (npm refuses those too), so it never reads as a
// flag, a path or a URL.
var npmName = regexp.MustCompile(`^(@[a-z0-9~][a-z0-9._~-]*/)?[a-z0-9~][a-z0-9._~-]*$`)

// npmVersion is a version or range as a catalog may give it: digits,
// letters, dots and the range operators, never a path, URL or flag.
var npmVersion = regexp.MustCompile(`^[0-9A-Za-z.+^~<>=*| -]*$`)

// npmExact is one semantic version.
var npmExact = regexp.MustCompile(`^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// checkNPMSource says what is wrong with an npm source's package or
// version, if anything.
func checkNPMSource(s Source) error {
	if !npmName.MatchString(s.Package) || len(s.Package) > 214 {
		return fmt.Errorf("%q is not an npm package name (lower-case, optionally @scope/name)", s.Package)
	}
	if v := strings.TrimSpace(s.Version); strings.HasPrefix(v, "-") || !npmVersion.MatchString(v) {
		return fmt.Errorf("%q is not an npm version or range", s.Version)
	}
	return nil
}

// exactVersion reports whether v names one version rather than a range
// or a tag, so an install of it never changes.
func exactVersion(v string) bool {
	return npmExact.MatchString(strings.TrimSpace(v))
}

// packed is what npm pack --json reports about one package.
type packed struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Filename string `json:"filename"`
}

// Pack downloads the tarball of pkg at version (the latest when version
// is "") into dir, without running any of the package's scripts, and
// returns the tarball's path and the version fetched. npm checks the
// tarball against the registry's integrity digest.
func (n NPM) Pack(ctx context.Context, pkg, version, dir string) (tarball, got string, err error) {
	if err := checkNPMSource(Source{Package: pkg, Version: version}); err != nil {
		return "", "", err
	}
	prog := n.Program
	if prog == "" {
		prog = "npm"
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return "", "", ErrNoNPM
	}
	timeout := n.Timeout
	if timeout <= 0 {
		timeout = DefaultNPMTimeout
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	spec := pkg
	if v := strings.TrimSpace(version); v != "" {
		spec += "@" + v
	}
	// An empty directory as the working one: no package.json of the
	// user's around.
	out, errOut, err := runChild(ctx, path, dir, n.Environ,
		[]string{"npm_config_yes=false", "npm_config_ignore_scripts=true", "CI=1"}, timeout,
		"pack", spec, "--json", "--ignore-scripts", "--pack-destination", dir,
		"--no-audit", "--no-fund", "--no-update-notifier", "--loglevel", "error")
	switch {
	case errors.Is(err, errTimedOut):
		return "", "", fmt.Errorf("npm pack %s did not finish within %s and was stopped: check that the npm registry is reachable (npm config get registry)", spec, timeout)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "", "", err
	case err != nil:
		return "", "", npmError(pkg, version, errOut+"\n"+out, err)
	}
	var list []packed
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		return "", "", fmt.Errorf("npm pack %s: unexpected output %q", spec, lastLines(strings.TrimSpace(out), 4))
	}
	name := filepath.Base(list[0].Filename)
	tarball = filepath.Join(dir, name)
	if name == "." || name == string(filepath.Separator) {
		return "", "", fmt.Errorf("npm pack %s named no tarball", spec)
	}
	if _, err := os.Stat(tarball); err != nil {
		return "", "", fmt.Errorf("npm pack %s: the tarball it reported is missing: %w", spec, err)
	}
	return tarball, list[0].Version, nil
}

// npmError turns npm's error output into a message saying what was
// wrong: a package or version the registry does not have, a tarball
// that failed its integrity check, or npm's own last lines.
func npmError(pkg, version, msg string, err error) error {
	switch {
	case strings.Contains(msg, "E404"):
		return fmt.Errorf("npm package %s was not found in the registry (check the name in the marketplace catalog, and the registry with npm config get registry)", pkg)
	case strings.Contains(msg, "ETARGET"), strings.Contains(msg, "No matching version"):
		return fmt.Errorf("npm package %s has no version matching %q (npm view %s versions lists them)", pkg, version, pkg)
	case strings.Contains(msg, "EINTEGRITY"):
		return fmt.Errorf("the tarball of npm package %s does not match the registry's integrity digest; it was not installed", pkg)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(msg), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, "A complete log of this run") {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return fmt.Errorf("npm pack %s failed: %w", pkg, err)
	}
	return fmt.Errorf("npm pack %s failed: %s", pkg, lastLines(strings.Join(lines, "\n"), 4))
}
