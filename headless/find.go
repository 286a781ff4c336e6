package headless

import (
	"fmt"
	"os"
	"path/filepath"
)

// candidateNames are the executable names looked up on PATH, in order of
// preference (the branded Chrome first, as omp prefers it).
var candidateNames = []string{"google-chrome-stable", "google-chrome", "chromium", "chromium-browser", "chrome"}

// candidatePaths are fixed places a system browser is installed in.
var candidatePaths = []string{
	"/usr/bin/google-chrome-stable", "/usr/bin/google-chrome", "/usr/bin/chromium",
	"/usr/bin/chromium-browser", "/snap/bin/chromium",
	"/var/lib/flatpak/exports/bin/com.google.Chrome", "/var/lib/flatpak/exports/bin/org.chromium.Chromium",
}

// MissingHint is the one-line advice given when no browser is found.
const MissingHint = "no Chromium or Chrome found: install Debian's chromium package (apt-get install chromium; scripts/setup.sh does it) or set PUPPETEER_EXECUTABLE_PATH"

// Find returns the browser executable to start: override when it names
// an executable file (PUPPETEER_EXECUTABLE_PATH), else the first system
// Chrome or Chromium found with lookPath (exec.LookPath over the
// caller's PATH) or at a usual install path; "" when there is none.
// Nothing is ever downloaded.
func Find(override string, lookPath func(string) (string, error)) string {
	if override != "" && executable(override) {
		return override
	}
	if lookPath != nil {
		for _, name := range candidateNames {
			if p, err := lookPath(name); err == nil && executable(p) {
				return p
			}
		}
	}
	for _, p := range candidatePaths {
		if executable(p) {
			return p
		}
	}
	return ""
}

// executable reports whether p is a regular file with an execute bit.
func executable(p string) bool {
	fi, err := os.Stat(filepath.Clean(p))
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// CheckExecutable says what is wrong when p is not an executable file.
func CheckExecutable(p string) error {
	fi, err := os.Stat(filepath.Clean(p))
	switch {
	case err != nil:
		return fmt.Errorf("%s does not exist", p)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a file", p)
	case fi.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("%s is not executable", p)
	}
	return nil
}
