// Package mcptest helps test gopi's MCP client: a small fake MCP server
// that can be told to misbehave, and the way to a real one from npm.
//
// The fake server speaks MCP over stdio through the Go SDK and can hang,
// crash or write garbage, so failure handling is tested without network
// or npm. Tests re-execute their own binary with EnvMode set and call
// Main from TestMain (FakeServer builds that command).
//
// The real server is @modelcontextprotocol/server-everything, which
// scripts/setup.sh installs with npm into a cache directory
// (Everything finds it).
package mcptest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Environment variables that drive the fake server.
const (
	EnvMode    = "GOPI_FAKE_MCP"         // startup behaviour: serve, hang, crash, garbage, grandchild, schemas, many
	EnvPIDFile = "GOPI_FAKE_MCP_PIDFILE" // grandchild mode: where the grandchild's pid is written
)

// FakeServer returns the command and arguments that run the test binary
// as the fake server; its environment must hold EnvMode (see Main for the
// modes).
func FakeServer() (command string, args []string) {
	return os.Args[0], []string{"-test.run=^$"}
}

// Main runs the fake server when EnvMode is set and exits; it returns at
// once otherwise (the test binary then runs its tests). Modes: serve (tools
// echo, fail, hang, crash and garbage, and the resource fake://greeting),
// hang (never answers the handshake), crash (exits at once with a message
// on stderr), garbage (writes text that is not JSON-RPC), grandchild
// (serve, after starting a "sleep 300" whose pid goes to EnvPIDFile),
// schemas (tools with input schemas providers refuse, see SchemaTools),
// many (ManyTools tools named <verb>_<noun>).
func Main() {
	mode := os.Getenv(EnvMode)
	if mode == "" {
		return
	}
	os.Exit(run(mode))
}

func run(mode string) int {
	switch mode {
	case "hang":
		// Never answer the handshake.
		time.Sleep(time.Hour)
		return 0
	case "crash":
		fmt.Fprintln(os.Stderr, "fake server: missing API key, giving up")
		return 3
	case "schemas":
		return serveSchemas(os.Stdin, os.Stdout)
	case "many":
		if err := newManyServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			return 1
		}
		return 0
	case "garbage":
		fmt.Fprintln(os.Stdout, "this is not JSON-RPC")
		fmt.Fprintln(os.Stdout, "{\"jsonrpc\":\"2.0\",\"id\":\"bogus\",\"result\":")
		time.Sleep(time.Hour)
		return 0
	case "grandchild":
		cmd := exec.Command("sleep", "300")
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := os.WriteFile(os.Getenv(EnvPIDFile), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if err := NewServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fake server:", err)
		return 1
	}
	return 0
}

// NewServer returns the fake server (its tools and resource, see Main),
// for any transport: tests serve it over HTTP with the SDK's handlers.
func NewServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "fake", Version: "1.0"}, nil)
	type echoIn struct {
		Text string `json:"text" jsonschema:"the text to echo"`
	}
	// echo changes nothing and says so (readOnlyHint); the others do not.
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always report a tool error."}, func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "it failed on purpose"}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "Never answer."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		<-ctx.Done()
		time.Sleep(time.Hour) // ignore cancellation too
		return nil, nil, ctx.Err()
	})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "Exit the server."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		fmt.Fprintln(os.Stderr, "fake server: crashing as asked")
		os.Exit(4)
		return nil, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "garbage", Description: "Write invalid JSON-RPC."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		fmt.Fprintln(os.Stdout, "<<not json>>")
		time.Sleep(time.Hour)
		return nil, nil, nil
	})
	s.AddResource(&sdk.Resource{URI: "fake://greeting", Name: "greeting", MIMEType: "text/plain"}, func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "hello from the fake server"}}}, nil
	})
	return s
}
