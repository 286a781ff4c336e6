package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

// decode reads a JSON literal as the SDK hands inputSchema over.
func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// cleanInputSchema turns what servers send into object schemas providers
// take, saying what it changed.
func TestCleanInputSchema(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		warnings       []string // each warning contains this, in order
	}{
		{"missing", `null`, emptySchema, nil},
		{"string", `"not a schema"`, emptySchema, []string{`its inputSchema is a string ("not a schema"), not a JSON Schema object; the tool is offered without parameters`}},
		{"number", `42`, emptySchema, []string{"its inputSchema is a number (42), not a JSON Schema object"}},
		{"array", `[{"type":"string"}]`, emptySchema, []string{`its inputSchema is an array ([{"type":"string"}]), not a JSON Schema object`}},
		{"boolean", `true`, emptySchema, []string{"its inputSchema is a boolean (true)"}},
		{"untyped", `{"properties":{"a":{"type":"string"}}}`, `{"properties":{"a":{"type":"string"}},"type":"object"}`, nil},
		{"string type", `{"type":"string","minLength":1}`, `{"minLength":1,"properties":{},"type":"object"}`, []string{`its inputSchema has type "string", not object`}},
		{"keywords", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"string","nullable":true},"$schema":{"type":"string","default":{"nullable":1}}}}`,
			`{"properties":{"$schema":{"default":{"nullable":1},"type":"string"},"a":{"type":"string"}},"type":"object"}`, nil},
		{"refs", `{"type":"object","properties":{"p":{"$ref":"#/$defs/P","description":"the p"},"q":{"$ref":"#/definitions/Q"}},"$defs":{"P":{"type":"object","properties":{"x":{"const":"a"}}}},"definitions":{"Q":{"type":"integer"}}}`,
			`{"properties":{"p":{"description":"the p","properties":{"x":{"enum":["a"],"type":"string"}},"type":"object"},"q":{"type":"integer"}},"type":"object"}`, nil},
		{"recursive", `{"$defs":{"N":{"type":"object","properties":{"v":{"type":"number"},"next":{"$ref":"#/$defs/N"}}}},"type":"object","properties":{"head":{"$ref":"#/$defs/N"}}}`,
			`{"properties":{"head":{"properties":{"next":{},"v":{"type":"number"}},"type":"object"}},"type":"object"}`, nil},
		{"unresolvable", `{"type":"object","properties":{"a":{"$ref":"#/$defs/Missing"},"b":{"$ref":"https://example.com/s.json"}}}`,
			`{"properties":{"a":{},"b":{}},"type":"object"}`, []string{"refers to #/$defs/Missing, which gopi cannot resolve", "refers to https://example.com/s.json, which gopi cannot resolve"}},
		{"const alternatives", `{"type":"object","properties":{"mode":{"oneOf":[{"const":"fast"},{"const":"slow"}],"description":"how"}}}`,
			`{"properties":{"mode":{"description":"how","enum":["fast","slow"],"type":"string"}},"type":"object"}`, nil},
		{"top-level anyOf", `{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"number"},"a":{"type":"number"}}}]}`,
			`{"properties":{"a":{"type":"string"},"b":{"type":"number"}},"type":"object"}`, []string{"combines schemas at the top level (anyOf), which providers refuse"}},
		{"top-level allOf", `{"type":"object","properties":{"c":{"type":"boolean"}},"required":["c",7],"allOf":[{"properties":{"d":{"type":"string"}},"required":["d"]}],"not":{"required":["e"]}}`,
			`{"properties":{"c":{"type":"boolean"},"d":{"type":"string"}},"required":["c","d"],"type":"object"}`, []string{"(allOf)", "uses not at the top level"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := cleanInputSchema(decode(t, c.in))
			if string(got.raw) != c.want || got.drop {
				t.Errorf("got %s (drop %v)\nwant %s", got.raw, got.drop, c.want)
			}
			if len(got.warnings) != len(c.warnings) {
				t.Fatalf("warnings %q", got.warnings)
			}
			for i, w := range c.warnings {
				if !strings.Contains(got.warnings[i], w) {
					t.Errorf("warning %d: %q lacks %q", i, got.warnings[i], w)
				}
			}
		})
	}
}

// References that expand exponentially are inlined only up to a budget;
// a schema still too large to send with every request drops the tool.
func TestCleanInputSchemaLimits(t *testing.T) {
	defs := map[string]any{}
	for i := range 40 {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/D%d", i+1)}
		defs[fmt.Sprintf("D%d", i)] = map[string]any{"type": "object", "properties": map[string]any{"left": next, "right": next}}
	}
	defs["D40"] = map[string]any{"type": "string"}
	bomb := map[string]any{"type": "object", "$defs": defs, "properties": map[string]any{"root": map[string]any{"$ref": "#/$defs/D0"}}}
	got := cleanInputSchema(bomb)
	if len(got.warnings) != 1 || !strings.Contains(got.warnings[0], "nests deeper or is larger than gopi inlines") {
		t.Errorf("warnings %q", got.warnings)
	}
	if got.drop || len(got.raw) > maxSchemaBytes || !strings.Contains(string(got.raw), `"right":{}`) {
		t.Errorf("drop %v, %d bytes: %.200s", got.drop, len(got.raw), got.raw)
	}

	props := map[string]any{}
	for i := range 3000 {
		props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string", "description": strings.Repeat("d", 100)}
	}
	got = cleanInputSchema(map[string]any{"type": "object", "properties": props})
	if !got.drop || len(got.warnings) != 1 || !strings.Contains(got.warnings[0], "KB sent with every request allows; the tool is left out") {
		t.Errorf("drop %v, warnings %q", got.drop, got.warnings)
	}
}

// A server whose tools' input schemas providers refuse: each tool is
// offered with a cleaned schema or left out, the server's status lists
// the warnings, and a tool still calls through.
func TestServerSchemasAreCleaned(t *testing.T) {
	m := start(t, Options{Servers: []*config.MCPServer{fake("odd", "schemas")}})
	info := m.Servers()
	if len(info) != 1 || info[0].State != StateConnected {
		t.Fatalf("servers = %+v", info)
	}
	if got := strings.Join(info[0].Tools, ","); got != "mcp__odd__plain,mcp__odd__stringy,mcp__odd__refs,mcp__odd__alts" {
		t.Errorf("tools = %s", got)
	}
	schemas := map[string]string{}
	for _, x := range m.Tools() {
		raw, _ := json.Marshal(x.Definition().Parameters)
		schemas[x.Definition().Name] = string(raw)
	}
	for name, want := range map[string]string{
		"mcp__odd__plain":   `{"properties":{"x":{"type":"string"}},"type":"object"}`,
		"mcp__odd__stringy": emptySchema,
		"mcp__odd__refs":    `{"properties":{"opts":{"properties":{"depth":{"type":"integer"}},"type":"object"}},"required":["opts"],"type":"object"}`,
		"mcp__odd__alts":    `{"properties":{"id":{"type":"string"},"name":{"type":"string"}},"type":"object"}`,
	} {
		if schemas[name] != want {
			t.Errorf("%s: %s, want %s", name, schemas[name], want)
		}
	}
	warnings := m.Status().Warnings()
	for i, want := range []string{
		`MCP server "odd", tool stringy: its inputSchema is a string ("not a schema"), not a JSON Schema object`,
		`MCP server "odd", tool alts: its inputSchema combines schemas at the top level (anyOf)`,
		`MCP server "odd", tool huge: its inputSchema is `,
	} {
		if i >= len(warnings) || !strings.HasPrefix(warnings[i], want) {
			t.Errorf("warnings %q, want %d: %q", warnings, i, want)
		}
	}
	if len(warnings) != 3 || !strings.HasSuffix(warnings[2], "the tool is left out") {
		t.Errorf("warnings %q", warnings)
	}
	if res := call(t, findTool(t, m, "mcp__odd__alts"), `{"id":"7"}`); res.IsError || res.FirstText() != `called alts with {"id":"7"}` {
		t.Errorf("call: %+v", res)
	}
}
