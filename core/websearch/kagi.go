package websearch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gopi-agent/gopi/core/config"
)

type kagiResponse struct {
	Meta struct {
		ID string `json:"id"`
	} `json:"meta"`
	Data []struct {
		T         int      `json:"t"` // 0 result, 1 related searches
		URL       string   `json:"url"`
		Title     string   `json:"title"`
		Snippet   string   `json:"snippet"`
		Published string   `json:"published"`
		List      []string `json:"list"`
	} `json:"data"`
	Error []struct {
		Code int    `json:"code"`
		Msg  string `json:"msg"`
	} `json:"error"`
}

// kagi asks Kagi's Search API (GET /api/v0/search, "Bot" key): 10
// results by default, at most 40; related searches become related
// questions. An error list in a 200 answer is a failure.
func (s *Searcher) kagi(ctx context.Context, p Params) (*Response, error) {
	key, err := s.key(ctx, Kagi, s.cfg.Kagi)
	if err != nil {
		return nil, err
	}
	n := clampResults(firstPositive(p.NumSearchResults, p.Limit), 10, 40)
	q := url.Values{"q": {p.Query}, "limit": {strconv.Itoa(n)}}
	var out kagiResponse
	if _, err := s.t.do(ctx, request{provider: Kagi, keyVar: config.EnvKagiAPIKey, method: http.MethodGet,
		url:    s.baseURL(Kagi, "https://kagi.com") + "/api/v0/search?" + q.Encode(),
		header: http.Header{"Authorization": {"Bot " + key}}}, &out); err != nil {
		return nil, err
	}
	if len(out.Error) > 0 {
		e := out.Error[0]
		msg := fmt.Sprintf("Kagi API error (%d)", e.Code)
		if e.Msg != "" {
			msg += ": " + e.Msg
		}
		return nil, &Error{Provider: Kagi, Status: e.Code, Message: msg, KeyVar: config.EnvKagiAPIKey}
	}
	r := &Response{Provider: Kagi, RequestID: out.Meta.ID, Sources: []Source{}}
	for _, d := range out.Data {
		switch d.T {
		case 0:
			r.Sources = append(r.Sources, Source{Title: d.Title, URL: d.URL, Snippet: d.Snippet,
				PublishedDate: d.Published, AgeSeconds: ageOf(d.Published, s.now())})
		case 1:
			r.RelatedQuestions = append(r.RelatedQuestions, d.List...)
		}
	}
	r.Sources = limitSources(r.Sources, n)
	return r, nil
}
