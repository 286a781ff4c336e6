package websearch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
)

// ExaMCP keys Options.BaseURLs with the base URL of Exa's public MCP
// server (https://mcp.exa.ai), which Exa searches go to without a key. It
// is not a provider of its own.
const ExaMCP ID = "exa-mcp"

// exaMCPTool is the search tool of Exa's MCP server.
const exaMCPTool = "web_search_exa"

// exaMCP calls web_search_exa on Exa's MCP server (JSON-RPC tools/call,
// no key) for n results (0: the server's default). The server answers
// with events or JSON; the tool's result is either a search answer
// (results, …), possibly inside structuredContent, data, result or a
// JSON text part, or text sections "Title: …\nURL: …\nText: …".
func (s *Searcher) exaMCP(ctx context.Context, query string, n int) (*exaResponse, error) {
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	args := map[string]any{"query": query}
	if n > 0 {
		args["num_results"] = n
	}
	body := map[string]any{"jsonrpc": "2.0", "id": hex.EncodeToString(id), "method": "tools/call",
		"params": map[string]any{"name": exaMCPTool, "arguments": args}}
	var raw rawBody
	if _, err := s.t.do(ctx, request{provider: Exa, method: http.MethodPost,
		url:    s.baseURL(ExaMCP, "https://mcp.exa.ai") + "/mcp?tools=" + exaMCPTool,
		header: http.Header{"Accept": {"application/json, text/event-stream"}}, body: body}, &raw); err != nil {
		return nil, err
	}
	msg, ok := mcpMessage(raw)
	if !ok {
		return nil, &Error{Provider: Exa, Status: 500, Message: "Exa MCP answer could not be read (neither events nor JSON); try again, or set EXA_API_KEY to use Exa's search API"}
	}
	var rpc struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal(msg, &rpc)
	if rpc.Error != nil {
		return nil, &Error{Provider: Exa, Status: 400, Message: "Exa MCP error: " + firstNonEmpty(strings.TrimSpace(rpc.Error.Message), "unknown error")}
	}
	if out := exaSearchPayload(rpc.Result); out != nil {
		return out, nil
	}
	if out := exaTextPayload(rpc.Result); out != nil {
		return out, nil
	}
	return nil, &Error{Provider: Exa, Status: 500, Message: "Exa MCP search answered in a shape gopi does not read (no results, no result text); try again, or set EXA_API_KEY to use Exa's search API"}
}

// mcpMessage is the JSON-RPC message of an MCP answer: the first event
// whose data is a JSON value other than null, else the whole body as
// JSON.
func mcpMessage(raw []byte) (json.RawMessage, bool) {
	for _, line := range strings.Split(string(raw), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		data = strings.TrimSpace(data)
		if !ok || data == "[DONE]" {
			continue
		}
		if !json.Valid([]byte(data)) {
			return nil, false
		}
		if data != "null" && data != "false" && data != "0" && data != `""` {
			return json.RawMessage(data), true
		}
	}
	if json.Valid(raw) {
		return json.RawMessage(raw), true
	}
	return nil, false
}

// exaSearchPayload finds a search answer in a tool result: in its
// structuredContent, data or result, in the result itself, or in a text
// part holding JSON; nil when none looks like one.
func exaSearchPayload(result json.RawMessage) *exaResponse {
	var root map[string]json.RawMessage
	if json.Unmarshal(result, &root) != nil {
		return nil
	}
	candidates := []json.RawMessage{root["structuredContent"], root["data"], root["result"], result}
	var content []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(root["content"], &content)
	for _, c := range content {
		if t := strings.TrimSpace(c.Text); t != "" && json.Valid([]byte(t)) {
			candidates = append(candidates, json.RawMessage(t))
		}
	}
	for _, c := range candidates {
		var obj map[string]json.RawMessage
		if len(c) == 0 || json.Unmarshal(c, &obj) != nil || obj == nil {
			continue
		}
		if !hasAnyKey(obj, "results", "statuses", "costDollars", "searchTime") {
			continue
		}
		var out exaResponse
		if json.Unmarshal(c, &out) != nil {
			continue
		}
		return &out
	}
	return nil
}

// hasAnyKey reports whether obj has one of keys.
func hasAnyKey(obj map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}
