package sdk_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/sdk"
)

// Example embeds gopi: an isolated configuration whose models.yml points
// at a local OpenAI-compatible server (here gopi's scripted mock), an
// in-memory session, and a subscriber printing the answer as it streams.
// The model reads a file with the read tool, then answers.
func Example() {
	srv := mockllm.New(nil)
	defer srv.Close()
	srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("read", `{"path":"hello.txt"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("The file says: hello, world")}},
	)

	home, _ := os.MkdirTemp("", "gopi-sdk-example")
	defer os.RemoveAll(home)
	agentDir := filepath.Join(home, ".gopi", "agent")
	os.MkdirAll(agentDir, 0o755)
	os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte(`providers:
  local:
    baseUrl: `+srv.URL()+`/v1
    api: openai-completions
    apiKey: LOCAL_KEY
    models:
      - id: tiny-model
`), 0o644)
	os.WriteFile(filepath.Join(home, "hello.txt"), []byte("hello, world\n"), 0o644)

	ctx := context.Background()
	cfg, err := sdk.LoadConfig(home, []string{"HOME=" + home, "LOCAL_KEY=x"})
	if err != nil {
		log.Fatal(err)
	}
	reg, err := sdk.LoadModels(cfg)
	if err != nil {
		log.Fatal(err)
	}
	model, err := reg.Find("local/tiny-model")
	if err != nil {
		log.Fatal(err)
	}
	s, err := sdk.New(ctx, sdk.Options{Config: cfg, Models: reg, Model: model, Store: sdk.InMemory(home)})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	s.Subscribe(func(ev sdk.Event) {
		switch e := ev.(type) {
		case sdk.ToolExecutionStart:
			fmt.Printf("[%s %v]\n", e.ToolName, e.Args["path"])
		case sdk.MessageUpdate:
			if e.AssistantMessageEvent.Type == "text_delta" {
				fmt.Print(e.AssistantMessageEvent.Delta)
			}
		case sdk.AgentEnd:
			fmt.Println()
		}
	})
	if err := s.Prompt(ctx, "What does hello.txt say?", sdk.PromptOptions{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// [read hello.txt]
	// The file says: hello, world
}
