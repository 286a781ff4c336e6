package websearch

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/config"
)

// anthropicModel is the model of Anthropic web search unless
// ANTHROPIC_SEARCH_MODEL names another.
const anthropicModel = "claude-haiku-4-5"

type anthropicResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Content []struct {
		Type  string `json:"type"`
		Text  string `json:"text"`
		Name  string `json:"name"`
		Input struct {
			Query string `json:"query"`
		} `json:"input"`
		Citations []struct {
			URL       string `json:"url"`
			Title     string `json:"title"`
			CitedText string `json:"cited_text"`
		} `json:"citations"`
		// Content is a web_search_tool_result's results (an error object
		// when the search failed, which leaves it empty).
		Content anthropicResults `json:"content"`
	} `json:"content"`
	Usage struct {
		InputTokens   int `json:"input_tokens"`
		OutputTokens  int `json:"output_tokens"`
		ServerToolUse *struct {
			WebSearchRequests int `json:"web_search_requests"`
		} `json:"server_tool_use"`
	} `json:"usage"`
}

type anthropicResult struct {
	Type    string `json:"type"`
	Title   string `json:"title"`
	URL     string `json:"url"`
	PageAge string `json:"page_age"`
}

// anthropicResults reads a list of results and ignores any other shape.
type anthropicResults []anthropicResult

func (a *anthropicResults) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '[' {
		var list []anthropicResult
		if err := jsonUnmarshal(data, &list); err != nil {
			return err
		}
		*a = list
	}
	return nil
}

// anthropic asks a Claude model (claude-haiku-4-5 by default) with
// Anthropic's server-side web_search tool (POST /v1/messages?beta=true):
// the answer with its citations, the pages found and the queries run.
func (s *Searcher) anthropic(ctx context.Context, p Params) (*Response, error) {
	key, err := s.key(ctx, Anthropic, s.cfg.AnthropicKey)
	if err != nil {
		return nil, err
	}
	model := s.cfg.AnthropicModel
	if model == "" {
		model = anthropicModel
	}
	body := map[string]any{
		"model":      model,
		"max_tokens": firstPositive(p.MaxTokens, 4096),
		"messages":   []map[string]string{{"role": "user", "content": p.Query}},
		"tools":      []map[string]string{{"type": "web_search_20250305", "name": "web_search"}},
		"system":     []map[string]any{{"type": "text", "text": researchPrompt, "cache_control": map[string]string{"type": "ephemeral"}}},
	}
	if p.Temperature != nil {
		body["temperature"] = *p.Temperature
	}
	base := s.cfg.AnthropicBaseURL
	if base != "" {
		if err := checkEndpoint(Anthropic, base, "ANTHROPIC_SEARCH_BASE_URL or ANTHROPIC_BASE_URL"); err != nil {
			return nil, err
		}
	} else {
		base = s.baseURL(Anthropic, "https://api.anthropic.com")
	}
	base = strings.TrimSuffix(strings.TrimRight(base, "/"), "/v1")
	h := http.Header{"Anthropic-Version": {"2023-06-01"}, "Anthropic-Beta": {"web-search-2025-03-05"}}
	if strings.HasPrefix(key, "sk-ant-oat") {
		h.Set("Authorization", "Bearer "+key)
		h.Add("Anthropic-Beta", "oauth-2025-04-20")
	} else {
		h.Set("X-Api-Key", key)
	}
	keyVar := s.cfg.AnthropicKeyVar
	if keyVar == "" {
		keyVar = config.EnvAnthropicSearchAPIKey
	}
	var out anthropicResponse
	if _, err := s.t.do(ctx, request{provider: Anthropic, keyVar: keyVar, method: http.MethodPost,
		url: base + "/v1/messages?beta=true", header: h, body: body}, &out); err != nil {
		return nil, err
	}
	r := &Response{Provider: Anthropic, Model: out.Model, RequestID: out.ID, Sources: []Source{}}
	var answer []string
	for _, b := range out.Content {
		switch {
		case b.Type == "server_tool_use" && strings.TrimPrefix(b.Name, "proxy_") == "web_search":
			if b.Input.Query != "" {
				r.SearchQueries = append(r.SearchQueries, b.Input.Query)
			}
		case b.Type == "web_search_tool_result":
			for _, res := range b.Content {
				if res.Type == "web_search_result" {
					r.Sources = append(r.Sources, Source{Title: res.Title, URL: res.URL, PublishedDate: res.PageAge, AgeSeconds: pageAge(res.PageAge)})
				}
			}
		case b.Type == "text" && b.Text != "":
			answer = append(answer, b.Text)
			for _, c := range b.Citations {
				r.Citations = append(r.Citations, Citation{URL: c.URL, Title: c.Title, CitedText: c.CitedText})
			}
		}
	}
	r.Answer = strings.Join(answer, "\n\n")
	in, o := out.Usage.InputTokens, out.Usage.OutputTokens
	r.Usage = &Usage{InputTokens: &in, OutputTokens: &o}
	if out.Usage.ServerToolUse != nil {
		n := out.Usage.ServerToolUse.WebSearchRequests
		r.Usage.SearchRequests = &n
	}
	r.Sources = limitSources(r.Sources, firstPositive(p.NumSearchResults, p.Limit))
	return r, nil
}

var pageAgePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(\d+)\s*(s|sec|second|m|min|minute|h|hour|d|day|w|week|mo|month|y|year)s?\s*(ago)?$`)
})

var pageAgeUnits = map[string]int64{"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
	"d": 86400, "day": 86400, "w": 604800, "week": 604800, "mo": 2592000, "month": 2592000, "y": 31536000, "year": 31536000}

// pageAge reads Anthropic's relative page ages ("3 days ago").
func pageAge(s string) *int64 {
	m := pageAgePattern().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return nil
	}
	v := n * pageAgeUnits[strings.ToLower(m[2])]
	return &v
}
