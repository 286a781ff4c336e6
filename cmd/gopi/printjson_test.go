package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// TestPrintJSONHeader: `gopi --mode json -p` starts with the session header
// object as omp prints it (type "session", lower-camel keys), then the
// events, against a scripted OpenAI-compatible server.
func TestPrintJSONHeader(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("red")}})
	env := isolatedEnviron(t)
	home := strings.TrimPrefix(env[len(env)-1], "HOME=")
	agentDir := filepath.Join(home, ".gopi", "agent")
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		t.Fatal(err)
	}
	models := "providers:\n  mock:\n    baseUrl: " + srv.URL() + "/v1\n    api: openai-completions\n    apiKey: test-key\n    models:\n      - id: m\n"
	if err := os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte(models), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	cenv := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: env}
	if code := run(context.Background(), cenv, []string{"--mode", "json", "-p", "--no-title", "--model", "mock/m", "Name a colour."}); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	var header map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &header); err != nil {
		t.Fatalf("first line is not JSON: %v\n%s", err, lines[0])
	}
	if header["type"] != "session" || header["version"] != float64(3) || header["id"] == "" || header["cwd"] == nil || header["timestamp"] == nil {
		t.Errorf("first line = %s, want the session header {type:session, version:3, id, timestamp, cwd}", lines[0])
	}
	if _, goNames := header["ID"]; goNames {
		t.Errorf("first line uses Go field names: %s", lines[0])
	}
	var last map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last["type"] != "agent_end" {
		t.Errorf("last line = %s, want agent_end", lines[len(lines)-1])
	}
}
