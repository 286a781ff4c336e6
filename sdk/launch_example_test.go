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

// ExampleLaunch starts sessions as the command line does: a model by
// name, then Continue to pick the conversation up again from its file.
func ExampleLaunch() {
	srv := mockllm.New(nil)
	defer srv.Close()
	srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Noted: the build uses make.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("You told me the build uses make.")}},
	)
	home, _ := os.MkdirTemp("", "gopi-sdk-launch")
	defer os.RemoveAll(home)
	agentDir := filepath.Join(home, ".gopi", "agent")
	os.MkdirAll(agentDir, 0o755)
	os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte("providers:\n  local:\n    baseUrl: "+srv.URL()+"/v1\n    api: openai-completions\n    apiKey: LOCAL_KEY\n    models:\n      - id: tiny-model\n"), 0o644)
	environ := []string{"HOME=" + home, "LOCAL_KEY=x", "PI_NO_TITLE=1"}

	ctx := context.Background()
	for i, text := range []string{"The build uses make.", "What did I tell you?"} {
		s, err := sdk.Launch(ctx, &sdk.LaunchOptions{Cwd: home, Environ: environ, Model: "local/tiny-model", Continue: i > 0, NoExtensions: true})
		if err != nil {
			log.Fatal(err)
		}
		if err := s.Prompt(ctx, text, sdk.PromptOptions{}); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d messages: %s\n", len(s.Messages()), s.LastAssistantText())
		s.Close()
	}
	// Output:
	// 2 messages: Noted: the build uses make.
	// 4 messages: You told me the build uses make.
}
