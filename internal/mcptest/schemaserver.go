package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// The "schemas" mode is a hand-written MCP server (the SDK's server only
// lists tools whose input schema is a typed object) whose tools carry the
// input schemas real servers send and providers refuse. Its tools:
//
//	plain    a plain object schema
//	stringy  "not a schema"
//	refs     $schema, a $ref into $defs, nullable
//	alts     a top-level anyOf of two objects
//	huge     a schema too large to send with every request
//
// A call answers "called NAME with ARGS".

// SchemaTools are the tools of the "schemas" mode, by name.
var SchemaTools = map[string]any{
	"plain":   map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}},
	"stringy": "not a schema",
	"refs": map[string]any{
		"$schema":    "https://json-schema.org/draft/2020-12/schema",
		"type":       "object",
		"properties": map[string]any{"opts": map[string]any{"$ref": "#/$defs/Opts"}},
		"required":   []any{"opts"},
		"$defs": map[string]any{"Opts": map[string]any{"type": "object", "properties": map[string]any{
			"depth": map[string]any{"type": "integer", "nullable": true},
		}}},
	},
	"alts": map[string]any{"anyOf": []any{
		map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}, "required": []any{"id"}},
		map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []any{"name"}},
	}},
	"huge": map[string]any{"type": "object", "properties": map[string]any{"blob": map[string]any{"type": "string", "description": strings.Repeat("a very long description ", 20000)}}},
}

// serveSchemas answers MCP requests, one JSON-RPC message a line, until
// in ends.
func serveSchemas(in io.Reader, out io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification, or a reply to us
		}
		var result any
		switch req.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(req.Params, &p)
			result = map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "schemas", "version": "1.0"}}
		case "tools/list":
			var tools []any
			for _, name := range []string{"plain", "stringy", "refs", "alts", "huge"} {
				tools = append(tools, map[string]any{"name": name, "description": "A tool whose schema is " + name, "inputSchema": SchemaTools[name]})
			}
			result = map[string]any{"tools": tools}
		case "tools/call":
			var p struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(req.Params, &p)
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("called %s with %s", p.Name, p.Arguments)}}}
		case "ping":
			result = map[string]any{}
		default:
			_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "no method " + req.Method}})
			continue
		}
		if err := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result}); err != nil {
			return 1
		}
	}
	return 0
}
