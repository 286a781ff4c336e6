package lsp

import (
	"encoding/json"
	"testing"
)

// A server entry of a configuration file, whatever it holds, merges over
// a built-in or is refused with a reason; a merged server can be started
// (a command, file types and root markers).
func FuzzMergeServer(f *testing.F) {
	f.Add([]byte(`{"args":["serve","-v"],"settings":{"gopls":{"x":1}}}`), true)
	f.Add([]byte(`{"command":"x","fileTypes":[".x"],"rootMarkers":["*.x"],"initOptions":[1]}`), false)
	f.Add([]byte(`{"command":7,"fileTypes":"no"}`), true)
	f.Add([]byte(`{"disabled":"yes","warmupTimeoutMs":1e99}`), true)
	gopls := &Server{Name: "gopls", Command: "gopls", Args: []string{"serve"}, FileTypes: []string{".go"}, RootMarkers: []string{"go.mod"}}
	f.Fuzz(func(t *testing.T, data []byte, overBuiltin bool) {
		var fields map[string]any
		if json.Unmarshal(data, &fields) != nil {
			return
		}
		base := gopls
		if !overBuiltin {
			base = nil
		}
		s, err := mergeServer("gopls", base, fields)
		if err != nil {
			return
		}
		if s.Name != "gopls" || s.Command == "" || len(s.FileTypes) == 0 || len(s.RootMarkers) == 0 {
			t.Fatalf("merged an unusable server %+v from %s", s, data)
		}
	})
}
