package websearch

import (
	"context"
	"net/http"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
)

type exaResult struct {
	Title         string   `json:"title"`
	URL           string   `json:"url"`
	Author        string   `json:"author"`
	PublishedDate string   `json:"publishedDate"`
	Text          string   `json:"text"`
	Highlights    []string `json:"highlights"`
	Summary       string   `json:"summary"`
}

type exaResponse struct {
	RequestID string      `json:"requestId"`
	Results   []exaResult `json:"results"`
}

// exa asks Exa: its search API (POST /search, x-api-key) with a summary
// per result when EXA_API_KEY is set, else, as omp does, the
// web_search_exa tool of Exa's public MCP server, which needs no key.
// The first three summaries make the answer.
func (s *Searcher) exa(ctx context.Context, p Params) (*Response, error) {
	n := firstPositive(p.NumSearchResults, p.Limit)
	var out *exaResponse
	var err error
	if s.cfg.Exa != "" {
		out, err = s.exaAPI(ctx, p.Query, n)
	} else {
		out, err = s.exaMCP(ctx, p.Query, n)
	}
	if err != nil {
		return nil, err
	}
	r := &Response{Provider: Exa, RequestID: out.RequestID, Sources: []Source{}}
	var summaries []string
	for _, res := range out.Results {
		snippet := res.Summary
		if snippet == "" {
			snippet = res.Text
		}
		if snippet == "" {
			snippet = strings.Join(res.Highlights, " ")
		}
		src, ok := s.source(res.Title, res.URL, snippet, res.PublishedDate)
		if !ok {
			continue
		}
		src.Author = res.Author
		r.Sources = append(r.Sources, src)
		if sum := strings.TrimSpace(res.Summary); sum != "" && len(summaries) < 3 {
			t := strings.TrimSpace(res.Title)
			if t == "" {
				t = res.URL
			}
			summaries = append(summaries, "**"+t+"**: "+sum)
		}
	}
	r.Answer = strings.Join(summaries, "\n\n")
	r.Sources = limitSources(r.Sources, n)
	return r, nil
}

// exaAPI is one request to Exa's search API for n results (0: 10).
func (s *Searcher) exaAPI(ctx context.Context, query string, n int) (*exaResponse, error) {
	body := map[string]any{"query": query, "numResults": firstPositive(n, 10), "type": "auto",
		"contents": map[string]any{"summary": map[string]string{"query": query}}}
	var out exaResponse
	if _, err := s.t.do(ctx, request{provider: Exa, keyVar: config.EnvExaAPIKey, method: http.MethodPost,
		url:    s.baseURL(Exa, "https://api.exa.ai") + "/search",
		header: http.Header{"X-Api-Key": {s.cfg.Exa}}, body: body}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
