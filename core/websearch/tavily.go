package websearch

import (
	"context"
	"net/http"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
)

type tavilyResponse struct {
	Answer  string `json:"answer"`
	Results []struct {
		Title         string `json:"title"`
		URL           string `json:"url"`
		Content       string `json:"content"`
		PublishedDate string `json:"published_date"`
	} `json:"results"`
	RequestID string `json:"request_id"`
}

// tavily asks Tavily's search API (POST /search, Bearer key) for results
// and an advanced answer: 5 results by default, at most 20; recency is
// the time_range filter (the topic stays general).
func (s *Searcher) tavily(ctx context.Context, p Params) (*Response, error) {
	key, err := s.key(ctx, Tavily, s.cfg.Tavily)
	if err != nil {
		return nil, err
	}
	n := clampResults(firstPositive(p.NumSearchResults, p.Limit), 5, 20)
	body := map[string]any{"query": p.Query, "search_depth": "basic", "max_results": n,
		"include_answer": "advanced", "include_raw_content": false}
	if p.Recency != "" {
		body["time_range"] = p.Recency
	}
	var out tavilyResponse
	if _, err := s.t.do(ctx, request{provider: Tavily, keyVar: config.EnvTavilyAPIKey, method: http.MethodPost,
		url:    s.baseURL(Tavily, "https://api.tavily.com") + "/search",
		header: http.Header{"Authorization": {"Bearer " + key}}, body: body}, &out); err != nil {
		return nil, err
	}
	r := &Response{Provider: Tavily, Answer: strings.TrimSpace(out.Answer), RequestID: out.RequestID, AuthMode: "api_key", Sources: []Source{}}
	for _, res := range out.Results {
		if src, ok := s.source(res.Title, res.URL, res.Content, res.PublishedDate); ok {
			r.Sources = append(r.Sources, src)
		}
	}
	r.Sources = limitSources(r.Sources, n)
	return r, nil
}
