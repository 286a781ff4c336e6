package websearch

import (
	"context"
	"net/http"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
)

type parallelResponse struct {
	SearchID string `json:"search_id"`
	Results  []struct {
		URL         string   `json:"url"`
		Title       string   `json:"title"`
		PublishDate string   `json:"publish_date"`
		Excerpts    []string `json:"excerpts"`
	} `json:"results"`
}

// parallel asks Parallel's search API (POST /v1beta/search, x-api-key and
// the parallel-beta header) in fast mode with excerpts of up to 10 000
// characters: 10 results by default, at most 40.
func (s *Searcher) parallel(ctx context.Context, p Params) (*Response, error) {
	key, err := s.key(ctx, Parallel, s.cfg.Parallel)
	if err != nil {
		return nil, err
	}
	n := clampResults(firstPositive(p.NumSearchResults, p.Limit), 10, 40)
	body := map[string]any{"objective": p.Query, "search_queries": []string{p.Query}, "mode": "fast",
		"excerpts": map[string]int{"max_chars_per_result": 10000}}
	var out parallelResponse
	if _, err := s.t.do(ctx, request{provider: Parallel, keyVar: config.EnvParallelAPIKey, method: http.MethodPost,
		url:    s.baseURL(Parallel, "https://api.parallel.ai") + "/v1beta/search",
		header: http.Header{"X-Api-Key": {key}, "Parallel-Beta": {"search-extract-2025-10-10"}}, body: body}, &out); err != nil {
		return nil, err
	}
	r := &Response{Provider: Parallel, RequestID: out.SearchID, Sources: []Source{}}
	for _, res := range out.Results {
		if src, ok := s.source(res.Title, res.URL, strings.Join(res.Excerpts, "\n\n"), res.PublishDate); ok {
			r.Sources = append(r.Sources, src)
		}
	}
	r.Sources = limitSources(r.Sources, n)
	return r, nil
}
