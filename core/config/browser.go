package config

import (
	"os/exec"
	"path/filepath"

	"github.com/gopi-agent/gopi/headless"
)

// EnvBrowserExecutable names the Chromium the browser tool starts,
// before any system browser (as omp reads it).
const EnvBrowserExecutable = "PUPPETEER_EXECUTABLE_PATH"

// Browser are the browser tool's settings.
type Browser struct {
	Enabled       bool   // browser.enabled: offer the tool (when Exec is found)
	Headless      bool   // browser.headless: start Chromium without a window
	ScreenshotDir string // browser.screenshotDir: where screenshots are kept full size; "" the temporary directory
	// Exec is the Chromium to start: PUPPETEER_EXECUTABLE_PATH, else
	// the first system Chrome or Chromium on PATH or at a usual place;
	// "" when none is installed (the tool is then not offered).
	Exec string
	// ExecEnv names the variable Exec was taken from (an explicit
	// choice, used as given: a wrong path is an error naming it, never
	// silently replaced by the system browser); "" when Exec was found.
	ExecEnv string
}

// browser returns the browser tool's settings, with the executable
// looked up once in the configuration's PATH.
func (c *Config) browser() Browser {
	b := Browser{Enabled: true, Headless: true}
	if c.Settings != nil {
		b.Enabled = c.Settings.Bool("browser.enabled")
		b.Headless = c.Settings.Bool("browser.headless")
		b.ScreenshotDir = c.Settings.String("browser.screenshotDir")
	}
	if o := c.Env.Get(EnvBrowserExecutable); o != "" {
		b.Exec, b.ExecEnv = o, EnvBrowserExecutable
		return b
	}
	path := c.Env.Get("PATH")
	b.Exec = headless.Find("", func(name string) (string, error) {
		for _, dir := range filepath.SplitList(path) {
			if dir == "" {
				continue
			}
			if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
				return p, nil
			}
		}
		return "", exec.ErrNotFound
	})
	return b
}
