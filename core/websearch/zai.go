package websearch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/config"
)

// zaiTool is the tool of Z.AI's web search MCP server.
const zaiTool = "web_search_prime"

// zai calls the web_search_prime tool of Z.AI's MCP server (POST
// /api/mcp/web_search_prime/mcp, JSON-RPC tools/call, Bearer key). The
// server has named its query argument differently over time, so an
// answer that looks like an argument error is retried with the next
// spelling, as omp does. The text the tool returns is the answer; the
// results found in it (or in its structured content) are the sources.
func (s *Searcher) zai(ctx context.Context, p Params) (*Response, error) {
	key, err := s.key(ctx, Zai, s.cfg.Zai)
	if err != nil {
		return nil, err
	}
	count := firstPositive(p.NumSearchResults, p.Limit, 10)
	attempts := []map[string]any{
		{"query": p.Query, "count": count},
		{"search_query": p.Query, "count": count},
		{"search_query": p.Query, "search_engine": "search-prime", "count": count},
	}
	var result json.RawMessage
	for i, args := range attempts {
		result, err = s.zaiCall(ctx, key, args)
		if err == nil {
			break
		}
		e, ok := err.(*Error)
		msg := ""
		if ok {
			msg = strings.ToLower(e.Message)
		}
		argError := ok && (e.Status == 400 || strings.Contains(msg, "invalid") || strings.Contains(msg, "argument") || strings.Contains(msg, "query"))
		if i == len(attempts)-1 || !argError {
			return nil, err
		}
	}
	results, answer, requestID := zaiPayload(result)
	r := &Response{Provider: Zai, Answer: answer, RequestID: requestID, Sources: []Source{}}
	for _, res := range results {
		u := res.Link
		if u == "" {
			u = res.URL
		}
		date := res.PublishDate
		if date == "" {
			date = res.PublishedDate
		}
		if src, ok := s.source(res.Title, u, res.Content, date); ok {
			src.Author = res.Media
			r.Sources = append(r.Sources, src)
		}
	}
	r.Sources = limitSources(r.Sources, firstPositive(p.NumSearchResults, p.Limit))
	return r, nil
}

type zaiResult struct {
	Title         string `json:"title"`
	Content       string `json:"content"`
	Link          string `json:"link"`
	URL           string `json:"url"`
	Media         string `json:"media"`
	PublishDate   string `json:"publish_date"`
	PublishedDate string `json:"publishedDate"`
}

var mcpErrorCode = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)MCP error\s*(-?\d+)`)
})

// zaiCall makes one tools/call and returns its result, reading the answer
// as server-sent events or as plain JSON.
func (s *Searcher) zaiCall(ctx context.Context, key string, args map[string]any) (json.RawMessage, error) {
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	body := map[string]any{"jsonrpc": "2.0", "id": hex.EncodeToString(id), "method": "tools/call",
		"params": map[string]any{"name": zaiTool, "arguments": args}}
	var raw rawBody
	if _, err := s.t.do(ctx, request{provider: Zai, keyVar: config.EnvZaiAPIKey, method: http.MethodPost,
		url:    s.baseURL(Zai, "https://api.z.ai") + "/api/mcp/web_search_prime/mcp",
		header: http.Header{"Authorization": {"Bearer " + key}, "Accept": {"application/json, text/event-stream"}},
		body:   body}, &raw); err != nil {
		return nil, err
	}
	var last json.RawMessage
	for _, line := range strings.Split(string(raw), "\n") {
		data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:")
		if data = strings.TrimSpace(data); ok && data != "" && json.Valid([]byte(data)) {
			last = json.RawMessage(data)
		}
	}
	if last == nil {
		if !json.Valid(raw) {
			return nil, &Error{Provider: Zai, Status: 500, Message: "Z.AI MCP answer could not be read (neither events nor JSON); try again or choose another provider with providers.webSearch"}
		}
		last = json.RawMessage(raw)
	}
	var msg struct {
		Code         *int   `json:"code"`
		Success      *bool  `json:"success"`
		Msg          string `json:"msg"`
		Message      string `json:"message"`
		ErrorMessage string `json:"error_message"`
		Error        *struct {
			Code    *int
			Message string
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal(last, &msg)
	if text := firstNonEmpty(msg.Msg, msg.Message, msg.ErrorMessage); msg.Success != nil && !*msg.Success && text != "" {
		e := &Error{Provider: Zai, Message: "Z.AI API error: " + text}
		if msg.Code != nil && *msg.Code != 0 {
			e.Status, e.Message = *msg.Code, fmt.Sprintf("Z.AI API error (%d): %s", *msg.Code, text)
		}
		return nil, e
	}
	if msg.Error != nil {
		e := &Error{Provider: Zai, Status: 400, Message: "Z.AI MCP error: " + firstNonEmpty(msg.Error.Message, "Unknown error")}
		if msg.Error.Code != nil && *msg.Error.Code != 0 {
			e.Status, e.Message = *msg.Error.Code, fmt.Sprintf("Z.AI MCP error (%d): %s", *msg.Error.Code, firstNonEmpty(msg.Error.Message, "Unknown error"))
		}
		return nil, e
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(msg.Result, &res) == nil && res.IsError {
		var texts []string
		for _, c := range res.Content {
			if c.Text != "" {
				texts = append(texts, c.Text)
			}
		}
		text := strings.TrimSpace(strings.Join(texts, "\n"))
		status := 400
		if m := mcpErrorCode().FindStringSubmatch(text); m != nil {
			if n, err := strconv.Atoi(strings.TrimPrefix(m[1], "-")); err == nil {
				status = n
			}
		}
		return nil, &Error{Provider: Zai, Status: status, Message: firstNonEmpty(text, "Z.AI MCP tool call failed")}
	}
	if len(msg.Result) > 0 {
		return msg.Result, nil
	}
	return last, nil
}

// zaiPayload finds the results in a tool result: in it, its structured
// content, data or result, or the JSON inside its text parts; the text
// parts together are the answer.
func zaiPayload(raw json.RawMessage) (results []zaiResult, answer, requestID string) {
	candidates := []json.RawMessage{raw}
	var root struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
		Data              json.RawMessage `json:"data"`
		Result            json.RawMessage `json:"result"`
		Content           []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	var texts []string
	if json.Unmarshal(raw, &root) == nil {
		for _, c := range []json.RawMessage{root.StructuredContent, root.Data, root.Result} {
			if len(c) > 0 && string(c) != "null" {
				candidates = append(candidates, c)
			}
		}
		for _, part := range root.Content {
			if part.Text == "" {
				continue
			}
			texts = append(texts, part.Text)
			if json.Valid([]byte(part.Text)) {
				candidates = append(candidates, json.RawMessage(part.Text))
			}
		}
	}
	answer = strings.Join(texts, "\n\n")
	for _, c := range candidates {
		var list []zaiResult
		if json.Unmarshal(c, &list) == nil && len(list) > 0 {
			return list, answer, ""
		}
		var obj struct {
			SearchResult []zaiResult `json:"search_result"`
			Results      []zaiResult `json:"results"`
			RequestID    string      `json:"request_id"`
			RequestID2   string      `json:"requestId"`
			ID           string      `json:"id"`
		}
		if json.Unmarshal(c, &obj) != nil {
			continue
		}
		list = obj.SearchResult
		if len(list) == 0 {
			list = obj.Results
		}
		if len(list) > 0 {
			return list, answer, firstNonEmpty(obj.RequestID, obj.RequestID2, obj.ID)
		}
	}
	return nil, answer, ""
}

// rawBody, as the out of transport.do, takes the answer's bytes as they
// came (events or JSON).
type rawBody []byte

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
