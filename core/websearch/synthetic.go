package websearch

import (
	"context"
	"net/http"

	"github.com/gopi-agent/gopi/core/config"
)

type syntheticResponse struct {
	Results []struct {
		URL       string `json:"url"`
		Title     string `json:"title"`
		Text      string `json:"text"`
		Published string `json:"published"`
	} `json:"results"`
}

// synthetic asks Synthetic's search API (POST api.synthetic.new/v2/search,
// Bearer key); the limit cuts its results. Its dates are shown as given.
func (s *Searcher) synthetic(ctx context.Context, p Params) (*Response, error) {
	key, err := s.key(ctx, Synthetic, s.cfg.Synthetic)
	if err != nil {
		return nil, err
	}
	var out syntheticResponse
	if _, err := s.t.do(ctx, request{provider: Synthetic, keyVar: config.EnvSyntheticAPIKey, method: http.MethodPost,
		url:    s.baseURL(Synthetic, "https://api.synthetic.new") + "/v2/search",
		header: http.Header{"Authorization": {"Bearer " + key}}, body: map[string]string{"query": p.Query}}, &out); err != nil {
		return nil, err
	}
	r := &Response{Provider: Synthetic, Sources: []Source{}}
	for _, res := range out.Results {
		if src, ok := s.source(res.Title, res.URL, res.Text, ""); ok {
			src.PublishedDate = res.Published // omp computes no age for Synthetic
			r.Sources = append(r.Sources, src)
		}
	}
	r.Sources = limitSources(r.Sources, firstPositive(p.NumSearchResults, p.Limit))
	return r, nil
}
