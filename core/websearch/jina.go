package websearch

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gopi-agent/gopi/core/config"
)

type jinaResponse struct {
	Data []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"data"`
}

// jina asks Jina Reader's search (GET s.jina.ai/<query>, Bearer key,
// JSON): every result it returns, cut to the limit when one is given.
func (s *Searcher) jina(ctx context.Context, p Params) (*Response, error) {
	var out jinaResponse
	if _, err := s.t.do(ctx, request{provider: Jina, keyVar: config.EnvJinaAPIKey, method: http.MethodGet,
		url:    s.baseURL(Jina, "https://s.jina.ai") + "/" + url.PathEscape(p.Query),
		header: http.Header{"Authorization": {"Bearer " + s.cfg.Jina}}}, &out); err != nil {
		return nil, err
	}
	r := &Response{Provider: Jina, Sources: []Source{}}
	for _, res := range out.Data {
		if src, ok := s.source(res.Title, res.URL, res.Content, ""); ok {
			r.Sources = append(r.Sources, src)
		}
	}
	r.Sources = limitSources(r.Sources, firstPositive(p.NumSearchResults, p.Limit))
	return r, nil
}
