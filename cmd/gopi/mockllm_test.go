package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMockLLMServes runs `gopi mockllm --exit-when-done` on a one-turn
// script, plays the turn over HTTP and checks the stream, the exit and the
// request record.
func TestMockLLMServes(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.json")
	record := filepath.Join(dir, "record.jsonl")
	if err := os.WriteFile(script, []byte(`{"turns":[{"blocks":[{"type":"text","text":"hi from the mock"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	env := &cliEnv{stdout: outW, stderr: &stderr, stdin: strings.NewReader("")}
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, env, []string{"mockllm", "--script", script, "--exit-when-done", "--record", record})
		outW.Close()
	}()
	url, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL line: %v", err)
	}
	go io.Copy(io.Discard, outR)
	url = strings.TrimSpace(url)
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true,"system":"<rules> & more"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"content":"hi from "`) || !strings.HasSuffix(string(body), "data: [DONE]\n\n") {
		t.Errorf("unexpected stream:\n%s", body)
	}
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("gopi mockllm --exit-when-done did not exit after the last turn")
	}
	rec, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rec), `"path":"/v1/chat/completions"`) || !strings.Contains(string(rec), `"body":{"model":"m","stream":true,"system":"<rules> & more"}`) {
		t.Errorf("record = %s", rec)
	}
	if !strings.Contains(stderr.String(), "1 requests, 0 turns left unplayed") {
		t.Errorf("stderr = %s", stderr.String())
	}
}
