package share

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"

	"github.com/gopi-agent/gopi/core/lsp"
)

// wireVersion names this package's protocol on the socket; it is part of
// every key, so that gopi builds speaking another version never meet.
const wireVersion = "gopi-lsp-share/1"

// Key identifies one shared server: the program (its resolved path), its
// arguments, initialization options and settings, and the workspace root.
func Key(s *lsp.Server, root string) string {
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
	}{wireVersion, path, s.Args, s.InitOptions, s.Settings, filepath.Clean(root)})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// paths returns the socket and lock file of key in dir. The names are
// short, for the 108-byte limit of a socket path.
func paths(dir, key string) (sock, lock string) {
	base := filepath.Join(dir, key[:20])
	return base + ".sock", base + ".lock"
}
