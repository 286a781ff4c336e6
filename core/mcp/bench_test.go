package mcp

import (
	"context"
	"os"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/mcptest"
)

// BenchmarkToolCall times one MCP tool call over stdio, end to end as the
// agent makes it (tool.Run: argument validation, the JSON-RPC round trip
// through the child's pipes, the server's handler, the result
// conversion): against the Go fake server, and against the real
// server-everything on node when it is installed.
func BenchmarkToolCall(b *testing.B) {
	fakeCmd, fakeArgs := mcptest.FakeServer()
	cases := []struct {
		name, tool, args string
		server           func(b *testing.B) *config.MCPServer
	}{
		{"go-fake", "mcp__s__echo", `{"text":"ping"}`, func(*testing.B) *config.MCPServer {
			return &config.MCPServer{Name: "s", Type: config.MCPStdio, Command: fakeCmd, Args: fakeArgs, Env: map[string]string{mcptest.EnvMode: "serve"}}
		}},
		{"node-everything", "mcp__s__echo", `{"message":"ping"}`, func(b *testing.B) *config.MCPServer {
			cmd, args := mcptest.Everything(b)
			return &config.MCPServer{Name: "s", Type: config.MCPStdio, Command: cmd, Args: args}
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m := New(Options{Environ: os.Environ(), Servers: []*config.MCPServer{c.server(b)}})
			defer m.Close()
			m.Start(context.Background())
			var echo tool.Tool
			for _, t := range m.Tools() {
				if t.Definition().Name == c.tool {
					echo = t
				}
			}
			if echo == nil {
				b.Fatalf("no %s: %+v", c.tool, m.Servers())
			}
			ctx := context.Background()
			raw := []byte(c.args)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := tool.Run(ctx, echo, raw, nil)
				if err != nil || res.IsError {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}
