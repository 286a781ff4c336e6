package pykernel

import (
	_ "embed"
	"os"
	"path/filepath"
)

// The runner and its prelude, written next to each other (the runner
// loads prelude.py from its own directory).
var (
	//go:embed runner.py
	runnerPy []byte
	//go:embed prelude.py
	preludePy []byte
)

// install writes the runner and the prelude into dir and returns the
// runner's path.
func install(dir string) (string, error) {
	runner := filepath.Join(dir, "runner.py")
	for name, data := range map[string][]byte{"runner.py": runnerPy, "prelude.py": preludePy} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return "", err
		}
	}
	return runner, nil
}
