package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/secrets"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// TestSecretsNeverReachTheProvider: with secrets.enabled, no secret from
// the environment or secrets.yml appears in any request the mock provider
// receives (system prompt, user text, tool results), and a tool call the
// model writes with a placeholder runs with the real value.
func TestSecretsNeverReachTheProvider(t *testing.T) {
	const envSecret, fileSecret, awsKey = "abcdefgh12", "hunter2hunter2", "AKIAABCDEFGHIJKLMNOP"
	o, _ := secrets.New([]config.SecretEntry{{Type: config.SecretPlain, Content: envSecret}})
	ph := o.Obfuscate(envSecret)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"echo '`+ph+`' > seen.txt; cat notes.txt"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("done")}},
	)
	r.Environ = append(r.Environ, "MY_TOKEN="+envSecret)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("secrets:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(r.Project, ".gopi"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Write(".gopi/secrets.yml", "- type: plain\n  content: "+fileSecret+"\n- type: regex\n  content: \"AKIA[0-9A-Z]{16}\"\n")
	r.Write("notes.txt", "db password "+fileSecret+", aws "+awsKey+" and "+awsKey+", token "+envSecret+"\n")
	r.Write("AGENTS.md", "Deploy with the token "+envSecret+".\n")
	out, stderr, code := r.run("", "-p", "--append-system-prompt", "Never print "+fileSecret, "use "+envSecret+" to log in")
	if code != 0 || !strings.Contains(out, "done") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	seen, err := os.ReadFile(filepath.Join(r.Project, "seen.txt"))
	if err != nil || strings.TrimSpace(string(seen)) != envSecret {
		t.Errorf("the tool ran with %q (err %v); want the real secret", seen, err)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, req := range reqs {
		body := string(req.Body)
		for _, secret := range []string{envSecret, fileSecret, awsKey} {
			if strings.Contains(body, secret) {
				t.Errorf("request %d carries the secret %q", i, secret)
			}
		}
	}
	if !strings.Contains(string(reqs[0].Body), "use "+ph+" to log in") {
		t.Errorf("the user text does not carry the placeholder %s", ph)
	}
	if !strings.Contains(string(reqs[1].Body), "token "+ph) {
		t.Errorf("the tool result does not carry the placeholder %s", ph)
	}

	// Off by default: the same setup without the setting sends the text as is.
	r2 := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("plain")}})
	r2.Environ = append(r2.Environ, "MY_TOKEN="+envSecret)
	if _, _, code := r2.run("", "-p", "use "+envSecret); code != 0 {
		t.Fatal(code)
	}
	if !strings.Contains(string(r2.Srv.Requests()[0].Body), envSecret) {
		t.Error("secrets were hidden with secrets.enabled off")
	}
}

// TestSecretsInDataURLLikeOutput: a tool output that starts like a data:
// URL is text like any other; the secrets after it must not reach the
// provider, in this request or any later one (they used to go out in
// clear because the whole string was taken for image bytes).
func TestSecretsInDataURLLikeOutput(t *testing.T) {
	const envSecret, fileSecret = "abcdefgh12", "hunter2hunter2"
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"cat blob.txt"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("read it")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("still fine")}},
	)
	r.Environ = append(r.Environ, "MY_TOKEN="+envSecret)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("secrets:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.AgentDir, "secrets.yml"), []byte("- type: plain\n  content: "+fileSecret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("blob.txt", "data:text/plain;base64,xx token "+envSecret+" password "+fileSecret+"\n")
	if out, stderr, code := r.run("", "-p", "show me blob.txt", "and again"); code != 0 || !strings.Contains(out, "still fine") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, req := range reqs[1:] {
		body := string(req.Body)
		if !strings.Contains(body, "data:text/plain;base64,xx token #") {
			t.Errorf("request %d does not carry the tool output with placeholders", i+2)
		}
		for _, secret := range []string{envSecret, fileSecret} {
			if strings.Contains(body, secret) {
				t.Errorf("request %d carries the secret %q", i+2, secret)
			}
		}
	}
}
