package websearch

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
)

// searxngTimeRange maps a recency to SearXNG's time_range (it has no
// week: a week's search asks for the month).
var searxngTimeRange = map[string]string{"day": "day", "week": "month", "month": "month", "year": "year"}

type searxngResponse struct {
	Results []struct {
		Title          string `json:"title"`
		URL            string `json:"url"`
		Content        string `json:"content"`
		PublishedDate  string `json:"publishedDate"`
		PublishedDate2 string `json:"published_date"`
	} `json:"results"`
	Suggestions []string `json:"suggestions"`
}

// searxng asks a SearXNG instance's JSON API (GET <endpoint>/search,
// format=json) with Basic or Bearer auth when configured: 10 results by
// default, at most 20; suggestions become related questions.
func (s *Searcher) searxng(ctx context.Context, p Params) (*Response, error) {
	c := s.cfg.SearXNG
	if err := checkEndpoint(SearXNG, c.Endpoint, "SEARXNG_ENDPOINT or searxng.endpoint"); err != nil {
		return nil, err
	}
	n := clampResults(firstPositive(p.NumSearchResults, p.Limit), 10, 20)
	h := http.Header{}
	switch {
	case c.BasicSet:
		if err := checkBasic(c.BasicUsername, c.BasicPassword); err != nil {
			return nil, err
		}
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(c.BasicUsername+":"+c.BasicPassword)))
	case c.Token != "":
		h.Set("Authorization", "Bearer "+c.Token)
	}
	q := url.Values{"q": {p.Query}, "format": {"json"}}
	if firstPositive(p.NumSearchResults, p.Limit) > 0 {
		q.Set("pageno", "1")
	}
	if tr, ok := searxngTimeRange[p.Recency]; ok {
		q.Set("time_range", tr)
	}
	if c.Categories != "" {
		q.Set("categories", c.Categories)
	}
	if c.Language != "" {
		q.Set("language", c.Language)
	}
	var out searxngResponse
	if _, err := s.t.do(ctx, request{provider: SearXNG, keyVar: "SEARXNG_TOKEN or SEARXNG_BASIC_USERNAME/SEARXNG_BASIC_PASSWORD", method: http.MethodGet,
		url: strings.TrimRight(c.Endpoint, "/") + "/search?" + q.Encode(), header: h}, &out); err != nil {
		return nil, err
	}
	r := &Response{Provider: SearXNG, Sources: []Source{}, RelatedQuestions: out.Suggestions}
	for _, res := range out.Results {
		date := res.PublishedDate
		if date == "" {
			date = res.PublishedDate2
		}
		if src, ok := s.source(res.Title, res.URL, strings.TrimSpace(res.Content), date); ok {
			r.Sources = append(r.Sources, src)
		}
	}
	r.Sources = limitSources(r.Sources, n)
	return r, nil
}

// checkBasic refuses Basic credentials RFC 7617 cannot carry.
func checkBasic(user, pass string) error {
	msg := ""
	switch {
	case user == "" && pass != "" || user != "" && pass == "":
		msg = "SearXNG Basic auth needs both a user and a password: set searxng.basicUsername and searxng.basicPassword (or SEARXNG_BASIC_USERNAME and SEARXNG_BASIC_PASSWORD)."
	case strings.Contains(user, ":"):
		msg = "SearXNG Basic auth user names cannot contain ':'; fix searxng.basicUsername or SEARXNG_BASIC_USERNAME."
	case strings.IndexFunc(user+pass, func(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f }) >= 0:
		msg = "SearXNG Basic auth credentials contain control characters; remove them from the user name and password."
	}
	if msg != "" {
		return &Error{Provider: SearXNG, Message: msg}
	}
	return nil
}
