package websearch

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
)

// braveFreshness maps a recency to Brave's freshness codes.
var braveFreshness = map[string]string{"day": "pd", "week": "pw", "month": "pm", "year": "py"}

type braveResponse struct {
	Web struct {
		Results []struct {
			Title         string   `json:"title"`
			URL           string   `json:"url"`
			Description   string   `json:"description"`
			Age           string   `json:"age"`
			ExtraSnippets []string `json:"extra_snippets"`
		} `json:"results"`
	} `json:"web"`
}

// brave asks Brave's web search API (GET /res/v1/web/search, the key in
// X-Subscription-Token): 10 results by default, at most 20, recency as
// freshness.
func (s *Searcher) brave(ctx context.Context, p Params) (*Response, error) {
	n := clampResults(firstPositive(p.NumSearchResults, p.Limit), 10, 20)
	q := url.Values{"q": {p.Query}, "count": {strconv.Itoa(n)}, "extra_snippets": {"true"}}
	if f, ok := braveFreshness[p.Recency]; ok {
		q.Set("freshness", f)
	}
	var out braveResponse
	id, err := s.t.do(ctx, request{provider: Brave, keyVar: config.EnvBraveAPIKey, method: http.MethodGet,
		url:    s.baseURL(Brave, "https://api.search.brave.com") + "/res/v1/web/search?" + q.Encode(),
		header: http.Header{"X-Subscription-Token": {s.cfg.Brave}}}, &out)
	if err != nil {
		return nil, err
	}
	r := &Response{Provider: Brave, RequestID: id, Sources: []Source{}}
	for _, res := range out.Web.Results {
		if res.URL == "" {
			continue
		}
		var snippets []string
		add := func(t string) {
			t = strings.TrimSpace(t)
			for _, have := range snippets {
				if have == t {
					return
				}
			}
			if t != "" {
				snippets = append(snippets, t)
			}
		}
		add(res.Description)
		for _, e := range res.ExtraSnippets {
			add(e)
		}
		src, _ := s.source(res.Title, res.URL, strings.Join(snippets, "\n"), res.Age)
		r.Sources = append(r.Sources, src)
	}
	r.Sources = limitSources(r.Sources, n)
	return r, nil
}
