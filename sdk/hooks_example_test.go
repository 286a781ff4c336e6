package sdk_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/sdk"
)

// ExampleHooks guards the bash tool from Go, as an omp tool_call
// extension would: the hook refuses commands that delete recursively, and
// the model reads the reason as the call's result.
func ExampleHooks() {
	srv := mockllm.New(nil)
	defer srv.Close()
	srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"rm -rf build"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("I will leave build/ alone.")}},
	)
	home, _ := os.MkdirTemp("", "gopi-sdk-hooks")
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
	guard := &sdk.Hooks{
		Name: "no-recursive-delete",
		ToolCall: func(ctx context.Context, call *sdk.ToolCallInfo) (*sdk.ToolCallDecision, error) {
			if cmd, _ := call.Args["command"].(string); call.Name == "bash" && strings.Contains(cmd, "rm -rf") {
				return &sdk.ToolCallDecision{Block: true, Reason: "Blocked: recursive deletes need a human"}, nil
			}
			return nil, nil
		},
	}
	s, err := sdk.New(ctx, sdk.Options{Config: cfg, Models: reg, Model: model, Store: sdk.InMemory(home), Hooks: []*sdk.Hooks{guard}})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	s.Subscribe(func(ev sdk.Event) {
		if e, ok := ev.(sdk.ToolExecutionEnd); ok {
			fmt.Printf("[%s error=%v]\n", e.ToolName, e.IsError)
		}
	})
	if err := s.Prompt(ctx, "Clean the build", sdk.PromptOptions{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Contains(string(srv.Requests()[1].Body), "Blocked: recursive deletes need a human"))
	fmt.Println(s.LastAssistantText())
	// Output:
	// [bash error=true]
	// true
	// I will leave build/ alone.
}
