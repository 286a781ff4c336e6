package config

import (
	"path/filepath"
	"testing"
	"time"
)

func TestAgentValues(t *testing.T) {
	c := &Config{Dirs: Dirs{AgentDir: "/a", OMPAgentDir: "/h/.omp/agent"}, Env: EnvFromMap(map[string]string{
		EnvOpenAIStreamIdleTimeout: "5000",
		EnvStreamFirstEventTimeout: "0",
	})}
	if c.SessionsDir() != filepath.Join("/a", "sessions") || c.OMPSessionsDir() != "/h/.omp/agent/sessions" || c.BlobDir() != "/a/blobs" {
		t.Errorf("dirs %s %s %s", c.SessionsDir(), c.OMPSessionsDir(), c.BlobDir())
	}
	first, idle := c.StreamTimeouts()
	if first != -1 || idle != 5*time.Second {
		t.Errorf("timeouts %v %v", first, idle)
	}
	c.Env = EnvFromMap(map[string]string{EnvStreamIdleTimeout: "x"})
	if first, idle := c.StreamTimeouts(); first != 0 || idle != 0 {
		t.Errorf("defaults %v %v", first, idle)
	}
}

// The provider.*TimeoutMs settings apply when no variable is set; a
// variable wins; 0 turns a limit off.
func TestProviderTimeouts(t *testing.T) {
	s, err := NewSettings("", Layer{Kind: LayerGlobal, Data: map[string]any{"provider": map[string]any{
		"connectTimeoutMs": 1500, "firstEventTimeoutMs": 0, "idleTimeoutMs": 9000,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	c := &Config{Settings: s, Env: EnvFromMap(map[string]string{EnvStreamIdleTimeout: "2000"})}
	got := c.ProviderTimeouts()
	want := ProviderTimeouts{Connect: 1500 * time.Millisecond, FirstEvent: -1, Idle: 2 * time.Second}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	c = &Config{Settings: s, Env: EnvFromMap(map[string]string{EnvStreamConnectTimeout: "0"})}
	if got := c.ProviderTimeouts(); got.Connect != -1 || got.Idle != 9*time.Second {
		t.Errorf("env connect 0: %+v", got)
	}
	c = &Config{Env: EnvFromMap(nil)}
	if got := c.ProviderTimeouts(); got != (ProviderTimeouts{}) {
		t.Errorf("defaults: %+v", got)
	}
}
