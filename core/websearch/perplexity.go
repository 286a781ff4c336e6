package websearch

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/gopi-agent/gopi/core/config"
)

type perplexityResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content json.RawMessage `json:"content"` // a string or text chunks
		} `json:"message"`
	} `json:"choices"`
	Citations     []string `json:"citations"`
	SearchResults []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Date    string `json:"date"`
		Snippet string `json:"snippet"`
	} `json:"search_results"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

// perplexity asks Perplexity's chat completions (POST /chat/completions,
// Bearer key, model sonar-pro) for an answer with citations: max_tokens
// 8192, temperature 0.2 and 10 search results unless the call says
// otherwise; recency is search_recency_filter; the limit cuts sources.
//
// With PERPLEXITY_COOKIES, or a Perplexity sign-in stored in agent.db,
// the web app is asked instead (perplexity_web.go), as omp prefers.
func (s *Searcher) perplexity(ctx context.Context, p Params) (*Response, error) {
	if auth := s.perplexityWebLogin(ctx); auth != nil {
		return s.perplexityWeb(ctx, auth, p)
	}
	if s.cfg.Perplexity == "" {
		return nil, &Error{Provider: Perplexity, Message: "Perplexity has no usable credential: set PERPLEXITY_API_KEY or PERPLEXITY_COOKIES, or sign in to Perplexity"}
	}
	temp := 0.2
	if p.Temperature != nil {
		temp = *p.Temperature
	}
	body := map[string]any{
		"model": "sonar-pro",
		"messages": []map[string]string{
			{"role": "system", "content": researchPrompt},
			{"role": "user", "content": p.Query},
		},
		"max_tokens":               firstPositive(p.MaxTokens, 8192),
		"temperature":              temp,
		"search_mode":              "web",
		"num_search_results":       firstPositive(p.NumSearchResults, 10),
		"web_search_options":       map[string]string{"search_type": "pro", "search_context_size": "medium"},
		"enable_search_classifier": true,
		"reasoning_effort":         "medium",
		"language_preference":      "en",
	}
	if p.Recency != "" {
		body["search_recency_filter"] = p.Recency
	}
	var out perplexityResponse
	if _, err := s.t.do(ctx, request{provider: Perplexity, keyVar: config.EnvPerplexityAPIKey, method: http.MethodPost,
		url:    s.baseURL(Perplexity, "https://api.perplexity.ai") + "/chat/completions",
		header: http.Header{"Authorization": {"Bearer " + s.cfg.Perplexity}}, body: body}, &out); err != nil {
		return nil, err
	}
	r := &Response{Provider: Perplexity, Model: out.Model, RequestID: out.ID, AuthMode: "api_key", Sources: []Source{}}
	if len(out.Choices) > 0 {
		r.Answer = contentText(out.Choices[0].Message.Content)
	}
	if len(out.Citations) > 0 {
		for _, u := range out.Citations {
			src := Source{Title: u, URL: u}
			for _, sr := range out.SearchResults {
				if sr.URL == u {
					if sr.Title != "" {
						src.Title = sr.Title
					}
					src.Snippet, src.PublishedDate, src.AgeSeconds = sr.Snippet, sr.Date, ageOf(sr.Date, s.now())
					break
				}
			}
			r.Sources = append(r.Sources, src)
			r.Citations = append(r.Citations, Citation{URL: u, Title: src.Title})
		}
	} else {
		for _, sr := range out.SearchResults {
			src, ok := s.source(sr.Title, sr.URL, sr.Snippet, sr.Date)
			if !ok { // omp keeps a result without a URL
				src = Source{Title: sr.Title, Snippet: sr.Snippet, PublishedDate: sr.Date}
			}
			r.Sources = append(r.Sources, src)
		}
	}
	if out.Usage != nil {
		in, o, t := out.Usage.PromptTokens, out.Usage.CompletionTokens, out.Usage.TotalTokens
		r.Usage = &Usage{InputTokens: &in, OutputTokens: &o, TotalTokens: &t}
	}
	r.Sources = limitSources(r.Sources, p.Limit)
	return r, nil
}

// contentText is the text of a message content: a string, or the text
// of its text chunks.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var chunks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &chunks) != nil {
		return ""
	}
	var out string
	for _, c := range chunks {
		if c.Type == "text" {
			out += c.Text
		}
	}
	return out
}
