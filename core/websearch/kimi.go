package websearch

import (
	"context"
	"net/http"
	"strings"
)

type kimiResponse struct {
	SearchResults []struct {
		SiteName string `json:"site_name"`
		Title    string `json:"title"`
		URL      string `json:"url"`
		Snippet  string `json:"snippet"`
		Content  string `json:"content"`
		Date     string `json:"date"`
	} `json:"search_results"`
}

// kimi asks Kimi's (Moonshot's) search endpoint (POST
// api.kimi.com/coding/v1/search, Bearer key): 10 results by default, at
// most 20, without page crawling; the site name is the author.
func (s *Searcher) kimi(ctx context.Context, p Params) (*Response, error) {
	key, err := s.key(ctx, Kimi, s.cfg.Kimi)
	if err != nil {
		return nil, err
	}
	n := clampResults(firstPositive(p.NumSearchResults, p.Limit), 10, 20)
	endpoint := s.cfg.KimiURL
	if endpoint != "" {
		if err := checkEndpoint(Kimi, endpoint, "MOONSHOT_SEARCH_BASE_URL or KIMI_SEARCH_BASE_URL"); err != nil {
			return nil, err
		}
	} else {
		endpoint = s.baseURL(Kimi, "https://api.kimi.com") + "/coding/v1/search"
	}
	body := map[string]any{"text_query": p.Query, "limit": n, "enable_page_crawling": false, "timeout_seconds": 30}
	var out kimiResponse
	id, err := s.t.do(ctx, request{provider: Kimi, keyVar: s.cfg.KimiKeyVar, method: http.MethodPost, url: endpoint,
		header: http.Header{"Authorization": {"Bearer " + key}}, body: body}, &out)
	if err != nil {
		return nil, err
	}
	r := &Response{Provider: Kimi, RequestID: id, Sources: []Source{}}
	for _, res := range out.SearchResults {
		snippet := strings.TrimSpace(res.Snippet)
		if snippet == "" {
			snippet = strings.TrimSpace(res.Content)
		}
		src, ok := s.source(strings.TrimSpace(res.Title), res.URL, snippet, strings.TrimSpace(res.Date))
		if !ok {
			continue
		}
		src.Author = strings.TrimSpace(res.SiteName)
		r.Sources = append(r.Sources, src)
	}
	r.Sources = limitSources(r.Sources, n)
	return r, nil
}
