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

// ExampleSession_Compact compacts a conversation on demand: the older
// turns are replaced by a summary the model writes, the newest kept as
// they are. (A session also compacts by itself when its context passes
// the threshold; the compaction.* settings say when.)
func ExampleSession_Compact() {
	srv := mockllm.New(nil)
	defer srv.Close()
	srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Noted: the build uses make.")}, Usage: &mockllm.Usage{Input: 20, Output: 8}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Noted: tests run with go test.")}, Usage: &mockllm.Usage{Input: 40, Output: 8}},
		// The summary requests.
		mockllm.Turn{Match: "Write working notes", Blocks: []mockllm.Block{mockllm.Text("## Objective\nLearn how the project builds.")}},
		mockllm.Turn{Match: "two or three sentences", Blocks: []mockllm.Block{mockllm.Text("I noted how the project builds and tests.")}},
	)
	home, _ := os.MkdirTemp("", "gopi-sdk-compact")
	defer os.RemoveAll(home)
	agentDir := filepath.Join(home, ".gopi", "agent")
	os.MkdirAll(agentDir, 0o755)
	os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte("providers:\n  local:\n    baseUrl: "+srv.URL()+"/v1\n    api: openai-completions\n    apiKey: LOCAL_KEY\n    models:\n      - id: tiny-model\n"), 0o644)
	// Keep only the newest ~20 tokens verbatim, so this short
	// conversation has something to compact.
	os.WriteFile(filepath.Join(agentDir, "config.yml"), []byte("compaction:\n  keepRecentTokens: 20\n"), 0o644)

	ctx := context.Background()
	cfg, _ := sdk.LoadConfig(home, []string{"HOME=" + home, "LOCAL_KEY=x"})
	reg, _ := sdk.LoadModels(cfg)
	model, _ := reg.Find("local/tiny-model")
	s, err := sdk.New(ctx, sdk.Options{Config: cfg, Models: reg, Model: model, Store: sdk.InMemory(home)})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for _, p := range []string{"How does this project build? It uses make with the default target.", "And the tests? They run with go test ./... from the root."} {
		if err := s.Prompt(ctx, p, sdk.PromptOptions{}); err != nil {
			log.Fatal(err)
		}
	}
	res, err := s.Compact(ctx, "the build")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Summary)
	fmt.Println(res.ShortSummary)
	fmt.Println(len(s.Messages()), "messages: the summary and the last turn")
	// Output:
	// ## Objective
	// Learn how the project builds.
	// I noted how the project builds and tests.
	// 3 messages: the summary and the last turn
}

// exampleSession starts an in-memory session against a scripted mock
// model (the set-up of the examples above, shortened).
func exampleSession(ctx context.Context, srv *mockllm.Server) (s *sdk.Session, cleanup func()) {
	home, _ := os.MkdirTemp("", "gopi-sdk-example")
	agentDir := filepath.Join(home, ".gopi", "agent")
	os.MkdirAll(agentDir, 0o755)
	os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte("providers:\n  local:\n    baseUrl: "+srv.URL()+"/v1\n    api: openai-completions\n    apiKey: LOCAL_KEY\n    models:\n      - id: tiny-model\n"), 0o644)
	cfg, _ := sdk.LoadConfig(home, []string{"HOME=" + home, "LOCAL_KEY=x", "PI_NO_TITLE=1"})
	reg, _ := sdk.LoadModels(cfg)
	model, _ := reg.Find("local/tiny-model")
	s, err := sdk.New(ctx, sdk.Options{Config: cfg, Models: reg, Model: model, Store: sdk.InMemory(home)})
	if err != nil {
		log.Fatal(err)
	}
	return s, func() { s.Close(); os.RemoveAll(home) }
}

// ExampleSession_Navigate moves back in the session tree (/tree): picking
// the second question puts the conversation just before it and hands its
// text back for editing; the next prompt grows a second branch beside the
// first, and Tree draws both.
func ExampleSession_Navigate() {
	srv := mockllm.New(nil)
	defer srv.Close()
	srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Use make.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Run go test.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Run go vet.")}},
	)
	ctx := context.Background()
	s, cleanup := exampleSession(ctx, srv)
	defer cleanup()
	for _, p := range []string{"How do I build?", "How do I test?"} {
		if err := s.Prompt(ctx, p, sdk.PromptOptions{}); err != nil {
			log.Fatal(err)
		}
	}
	rows := s.Tree(sdk.TreeQuery{Filter: sdk.FilterUserOnly})
	res, err := s.Navigate(ctx, rows[1].Entry.ID, sdk.NavigateOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("editor:", res.EditorText)
	if err := s.Prompt(ctx, "How do I lint?", sdk.PromptOptions{}); err != nil {
		log.Fatal(err)
	}
	for _, row := range s.Tree(sdk.TreeQuery{}) {
		fmt.Println(row)
	}
	// Output:
	// editor: How do I test?
	// • user: How do I build?
	// • assistant: Use make.
	// ├─ • user: How do I lint?
	// │     • assistant: Run go vet.
	// └─ user: How do I test?
	//       assistant: Run go test.
}

// ExampleSession_Handoff continues in a new session from a document the
// model writes about the work so far.
func ExampleSession_Handoff() {
	srv := mockllm.New(nil)
	defer srv.Close()
	srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("The parser is in parse.go.")}},
		mockllm.Turn{Match: "handoff document", Blocks: []mockllm.Block{mockllm.Text("## Goal\nFix the parser in parse.go.")}},
	)
	ctx := context.Background()
	s, cleanup := exampleSession(ctx, srv)
	defer cleanup()
	if err := s.Prompt(ctx, "Where is the parser?", sdk.PromptOptions{}); err != nil {
		log.Fatal(err)
	}
	res, err := s.Handoff(ctx, "the parser")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Document)
	fmt.Println(len(s.Messages()), "message in the new session")
	// Output:
	// ## Goal
	// Fix the parser in parse.go.
	// 1 message in the new session
}
