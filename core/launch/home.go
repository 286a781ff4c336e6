package launch

import (
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/core/config"
)

// HomeFallback is where a run started in the home directory works
// instead, as omp does unless --allow-home: ~/tmp, /tmp or /var/tmp,
// whichever is a directory first, else $TMPDIR. ok is false when the run
// stays where it is (it did not start in the home directory, or no
// candidate exists).
func HomeFallback(cfg *config.Config) (dir string, ok bool) {
	if cfg.Home == "" || !samePath(cfg.Cwd, cfg.Home) {
		return "", false
	}
	for _, d := range []string{filepath.Join(cfg.Home, "tmp"), "/tmp", "/var/tmp", cfg.Env.Get("TMPDIR")} {
		if d == "" || samePath(d, cfg.Cwd) {
			continue
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d, true
		}
	}
	return "", false
}

// samePath reports whether a and b name the same directory (symbolic
// links resolved).
func samePath(a, b string) bool {
	resolve := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	return resolve(a) == resolve(b)
}
