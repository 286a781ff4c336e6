package models

import (
	"context"
	"testing"
)

// BenchmarkDiscoverDown is the start-up cost of discovery when no local
// server runs: four probes whose connections are refused.
func BenchmarkDiscoverDown(b *testing.B) {
	vars := map[string]string{"OLLAMA_BASE_URL": "http://127.0.0.1:1", "LM_STUDIO_BASE_URL": "http://127.0.0.1:1", "LLAMA_CPP_BASE_URL": "http://127.0.0.1:1"}
	for b.Loop() {
		r, err := Load(Options{NoFiles: true, Getenv: env(vars)})
		if err != nil {
			b.Fatal(err)
		}
		r.Discover(context.Background(), nil, 0)
		r.WaitDiscovery(context.Background())
	}
}
