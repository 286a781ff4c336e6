package websearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/ai/provider/openaicodex"
	"github.com/gopi-agent/gopi/core/ai/sse"
	"github.com/gopi-agent/gopi/core/config"
)

// codexModel is the model of Codex web search unless
// PI_CODEX_WEB_SEARCH_MODEL names another (omp's first preference).
const codexModel = "gpt-5-codex-mini"

// codex asks a Codex model through a ChatGPT sign-in (POST
// chatgpt.com/backend-api/codex/responses, streamed) with the Responses
// API's web_search tool forced: the answer, its url_citation sources
// (or, when it cites none, the links written in it) and the usage.
func (s *Searcher) codex(ctx context.Context, p Params) (*Response, error) {
	token, err := s.key(ctx, Codex, s.cfg.Codex)
	if err != nil {
		return nil, err
	}
	account, err := openaicodex.AccountID(token)
	if err != nil || account == "" {
		return nil, &Error{Provider: Codex, Message: "the ChatGPT access token (" + config.EnvCodexOAuthToken + " or the openai-codex sign-in) names no account; run gopi login openai-codex again"}
	}
	model := s.cfg.CodexModel
	if model == "" {
		model = codexModel
	}
	body := map[string]any{
		"model": model, "stream": true, "store": false,
		"input": []map[string]any{{"type": "message", "role": "user",
			"content": []map[string]string{{"type": "input_text", "text": p.Query}}}},
		"tools":        []map[string]string{{"type": "web_search", "search_context_size": "high"}},
		"tool_choice":  map[string]string{"type": "web_search"},
		"instructions": researchPrompt,
	}
	var raw rawBody
	if _, err := s.t.do(ctx, request{provider: Codex, keyVar: config.EnvCodexOAuthToken, method: http.MethodPost,
		url: s.baseURL(Codex, "https://chatgpt.com/backend-api") + "/codex/responses",
		header: http.Header{"Authorization": {"Bearer " + token}, "Chatgpt-Account-Id": {account},
			"Openai-Beta": {"responses=experimental"}, "Originator": {"pi"}, "Accept": {"text/event-stream"}},
		body: body}, &raw); err != nil {
		return nil, err
	}
	r, err := codexEvents(raw, model)
	if err != nil {
		return nil, err
	}
	r.Sources = limitSources(r.Sources, firstPositive(p.NumSearchResults, p.Limit))
	return r, nil
}

type codexEvent struct {
	Type  string `json:"type"`
	Delta string `json:"delta"`
	Code  string `json:"code"`
	Msg   string `json:"message"`
	Item  struct {
		Type    string `json:"type"`
		Content []struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			Annotations []struct {
				Type  string `json:"type"`
				URL   string `json:"url"`
				Title string `json:"title"`
			} `json:"annotations"`
		} `json:"content"`
		Summary []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"summary"`
	} `json:"item"`
	Response struct {
		ID    string `json:"id"`
		Model string `json:"model"`
		Usage *struct {
			InputTokens        int `json:"input_tokens"`
			OutputTokens       int `json:"output_tokens"`
			TotalTokens        int `json:"total_tokens"`
			InputTokensDetails struct {
				CachedTokens int `json:"cached_tokens"`
			} `json:"input_tokens_details"`
		} `json:"usage"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"response"`
}

// codexEvents reads the Responses stream into a Response.
func codexEvents(raw []byte, model string) (*Response, error) {
	r := &Response{Provider: Codex, Model: model, Sources: []Source{}}
	var final, streamed []string
	rd := sse.NewReader(bytes.NewReader(raw))
	for {
		ev, err := rd.Next()
		if len(ev.Data) > 0 {
			var e codexEvent
			if json.Unmarshal(ev.Data, &e) == nil {
				if ferr := r.codexEvent(&e, &final, &streamed); ferr != nil {
					return nil, ferr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &Error{Provider: Codex, Message: fmt.Sprintf("Codex stream could not be read: %v", err)}
		}
	}
	answer := strings.TrimSpace(strings.Join(final, "\n\n"))
	if s := strings.TrimSpace(strings.Join(streamed, "")); s != "" && (answer == "" || strings.EqualFold(answer, "(see attached image)")) {
		answer = s
	}
	r.Answer = answer
	if len(r.Sources) == 0 && answer != "" {
		for _, src := range linkSources(answer) {
			r.Sources = addSource(r.Sources, src)
		}
	}
	return r, nil
}

// codexEvent applies one stream event to r.
func (r *Response) codexEvent(e *codexEvent, final, streamed *[]string) error {
	switch e.Type {
	case "response.output_text.delta":
		if e.Delta != "" {
			*streamed = append(*streamed, e.Delta)
		}
	case "response.output_item.done":
		if e.Item.Type == "message" {
			for _, part := range e.Item.Content {
				if part.Type != "output_text" || part.Text == "" {
					continue
				}
				*final = append(*final, part.Text)
				for _, a := range part.Annotations {
					if a.Type == "url_citation" && a.URL != "" {
						title := a.Title
						if title == "" {
							title = a.URL
						}
						r.Sources = addSource(r.Sources, Source{Title: title, URL: a.URL})
					}
				}
			}
		}
		if e.Item.Type == "reasoning" {
			for _, part := range e.Item.Summary {
				if part.Type == "summary_text" && part.Text != "" {
					*final = append(*final, part.Text)
				}
			}
		}
	case "response.completed", "response.done":
		if e.Response.Model != "" {
			r.Model = e.Response.Model
		}
		if e.Response.ID != "" {
			r.RequestID = e.Response.ID
		}
		if u := e.Response.Usage; u != nil {
			in, out, total := u.InputTokens-u.InputTokensDetails.CachedTokens, u.OutputTokens, u.TotalTokens
			r.Usage = &Usage{InputTokens: &in, OutputTokens: &out, TotalTokens: &total}
		}
	case "error":
		return &Error{Provider: Codex, Status: 500, Message: fmt.Sprintf("Codex error (%s): %s", e.Code, firstNonEmpty(e.Msg, "Unknown error"))}
	case "response.failed":
		return &Error{Provider: Codex, Status: 500, Message: "Codex request failed: " + firstNonEmpty(e.Response.Error.Message, "Request failed")}
	}
	return nil
}

// addSource appends src unless a source has its URL.
func addSource(ss []Source, src Source) []Source {
	for _, have := range ss {
		if have.URL == src.URL {
			return ss
		}
	}
	return append(ss, src)
}

var bareURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`https?://\S+`)
})

// linkSources are the markdown links, then the bare URLs, of text.
func linkSources(text string) []Source {
	var out []Source
	for i := 0; i < len(text); i++ {
		if text[i] != '[' {
			continue
		}
		end := strings.IndexByte(text[i+1:], ']')
		if end < 0 {
			continue
		}
		titleEnd := i + 1 + end
		if titleEnd+1 >= len(text) || text[titleEnd+1] != '(' {
			continue
		}
		urlEnd := linkEnd(text, titleEnd+1)
		if urlEnd < 0 {
			continue
		}
		title := strings.TrimSpace(text[i+1 : titleEnd])
		if u := cleanURL(text[titleEnd+2 : urlEnd]); u != "" {
			if title == "" {
				title = u
			}
			out = addSource(out, Source{Title: title, URL: u})
		}
		i = urlEnd
	}
	for _, m := range bareURL().FindAllString(text, -1) {
		if u := cleanURL(m); u != "" {
			out = addSource(out, Source{Title: u, URL: u})
		}
	}
	return out
}

// linkEnd is the index of the parenthesis closing the one at open, -1
// when the line ends first.
func linkEnd(text string, open int) int {
	depth := 0
	for i := open; i < len(text); i++ {
		switch text[i] {
		case '\n':
			return -1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// cleanURL drops punctuation and unbalanced closing brackets a sentence
// put after a URL; "" when what is left is not an http(s) URL.
func cleanURL(s string) string {
	s = strings.TrimSpace(s)
	for s != "" {
		last := s[len(s)-1]
		if strings.IndexByte(".,!?;:'\"", last) >= 0 ||
			last == ')' && strings.Count(s, ")") > strings.Count(s, "(") ||
			last == ']' && strings.Count(s, "]") > strings.Count(s, "[") ||
			last == '}' && strings.Count(s, "}") > strings.Count(s, "{") {
			s = s[:len(s)-1]
			continue
		}
		break
	}
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return ""
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}
