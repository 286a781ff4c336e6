package share

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp"
)

// wireVersion names this package's protocol on the socket; it is part of
// every key, so that gopi builds speaking another version never meet.
const wireVersion = "gopi-lsp-share/1"

// Key identifies one shared server: the program (its resolved path), its
// arguments, initialization options and settings, the workspace root and
// the part of the environment that changes what a server sees (see
// buildEnv; env nil: this process's).
func Key(s *lsp.Server, root string, env []string) string {
	path := s.Path
	if path == "" {
		path = s.Command
	}
	b, _ := json.Marshal(struct {
		V        string          `json:"v"`
		Path     string          `json:"path"`
		Args     []string        `json:"args"`
		Init     json.RawMessage `json:"init,omitempty"`
		Settings map[string]any  `json:"settings,omitempty"`
		Root     string          `json:"root"`
		Env      []string        `json:"env,omitempty"`
	}{wireVersion, path, s.Args, s.InitOptions, s.Settings, filepath.Clean(root), buildEnv(env)})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// paths returns the socket and lock file of key in dir. The names are
// short, for the 108-byte limit of a socket path.
func paths(dir, key string) (sock, lock string) {
	base := filepath.Join(dir, key[:20])
	return base + ".sock", base + ".lock"
}

// buildPrefixes name the environment variables that change what a
// language server sees of a project: the program search path, the Go,
// Python, Node, Rust, C and Java toolchains' settings. Two processes that
// differ in one of them (GOFLAGS=-tags=foo, another virtualenv) do not
// share a server; the rest (terminal, session, shell) does not matter.
var buildPrefixes = []string{
	"PATH=", "GO", "CGO_", "VIRTUAL_ENV=", "CONDA_PREFIX=", "PYTHON", "NODE_", "NPM_CONFIG_", "CARGO_", "RUSTUP_",
	"RUSTFLAGS=", "CC=", "CXX=", "CFLAGS=", "CXXFLAGS=", "CPPFLAGS=", "LDFLAGS=", "CPATH=", "LIBRARY_PATH=",
	"PKG_CONFIG_PATH=", "JAVA_HOME=", "CLASSPATH=",
}

// buildEnv returns the variables of env (nil: this process's) named by
// buildPrefixes, sorted.
func buildEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	var out []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOPI_") {
			continue // gopi's own: not the toolchain's
		}
		for _, p := range buildPrefixes {
			if strings.HasPrefix(kv, p) {
				out = append(out, kv)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}
