package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// writeAgentFile writes a file of the rig's agent directory.
func writeAgentFile(t *testing.T, r *agentRig, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.AgentDir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// inspect_image sends the image and the question to the vision role's
// model (not the session's text-only model), and its answer is the
// tool's result the session's model sees.
func TestInspectImageAsksTheVisionModel(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("inspect_image", map[string]any{"path": "shot.png", "question": "What colour is it?"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("It is solid red.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("The screenshot is red.")}},
	)
	writeAgentFile(t, r, "models.yml", "providers:\n  mock:\n    baseUrl: "+r.Srv.URL()+"\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n"+
		"      - id: mock-model\n        name: Mock\n      - id: mock-eyes\n        name: Eyes\n        input: [text, image]\n")
	writeAgentFile(t, r, "config.yml", "inspect_image:\n  enabled: true\nmodelRoles:\n  vision: mock/mock-eyes\nimages:\n  autoResize: false\n")
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	r.Write("shot.png", b.String())

	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "what is in shot.png?")
	if code != 0 || out != "The screenshot is red.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if !slices.Contains(toolNames(t, r, 0), "inspect_image") {
		t.Fatal("inspect_image.enabled did not offer inspect_image")
	}
	var vision struct {
		Model    string `json:"model"`
		System   any    `json:"system"`
		Messages []struct {
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Srv.Requests()[1].Body, &vision); err != nil {
		t.Fatal(err)
	}
	if vision.Model != "mock-eyes" || len(vision.Messages) != 1 || len(vision.Messages[0].Content) != 2 {
		t.Fatalf("vision request: %s", r.Srv.Requests()[1].Body)
	}
	block, question := vision.Messages[0].Content[0], vision.Messages[0].Content[1]
	source, _ := block["source"].(map[string]any)
	if block["type"] != "image" || source["media_type"] != "image/png" || source["data"] == "" || question["text"] != "What colour is it?" {
		t.Fatalf("vision request content: %v", vision.Messages[0].Content)
	}
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(2)); !strings.Contains(msgs, "It is solid red.") {
		t.Fatalf("the answer did not reach the session's model: %s", msgs)
	}
}

// recipe runs a make target of the project through bash; the tool list
// follows recipe.enabled, renderMermaid.enabled and inspect_image.enabled.
func TestRecipeAndSmallToolSettings(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed (make setup installs it)")
	}
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("recipe", map[string]any{"op": "greet WHO=tests"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Nothing to run.")}},
	)
	r.Write("Makefile", ".PHONY: greet\ngreet: ## Greets\n\t@echo hello $(WHO)\n")
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "greet"); code != 0 || out != "Done.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	names := toolNames(t, r, 0)
	if !slices.Contains(names, "recipe") || slices.Contains(names, "render_mermaid") || slices.Contains(names, "inspect_image") {
		t.Fatalf("default tools: %v", names)
	}
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(1)); !strings.Contains(msgs, "hello tests") {
		t.Fatalf("the make target's output did not reach the model: %s", msgs)
	}

	writeAgentFile(t, r, "config.yml", "recipe:\n  enabled: false\nrenderMermaid:\n  enabled: true\ninspect_image:\n  enabled: true\n")
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "anything?"); code != 0 || out != "Nothing to run.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	names = toolNames(t, r, 2)
	if slices.Contains(names, "recipe") || !slices.Contains(names, "render_mermaid") || !slices.Contains(names, "inspect_image") {
		t.Fatalf("tools with the settings switched: %v", names)
	}
}

// render_mermaid draws the model's diagram; the drawing and its artifact
// footer reach the model, and the artifact holds the drawing.
func TestRenderMermaidThroughTheModel(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("render_mermaid", map[string]any{"mermaid": "graph LR; build --> test", "config": map[string]any{"useAscii": true}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Drawn.")}},
	)
	writeAgentFile(t, r, "config.yml", "renderMermaid:\n  enabled: true\n")
	if out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "draw the pipeline"); code != 0 || out != "Drawn.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	want := "+-------+     +------+\n|       |     |      |\n| build +---->| test |\n|       |     |      |\n+-------+     +------+\n\nSaved artifact: artifact://0"
	msgs := agentrig.MustMarshal(t, r.RequestMessages(1))
	quoted, _ := json.Marshal(want)
	if !strings.Contains(msgs, strings.Trim(string(quoted), `"`)) {
		t.Fatalf("the drawing did not reach the model:\n%s", msgs)
	}
}
