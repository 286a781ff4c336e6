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
