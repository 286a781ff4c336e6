package websearch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai/sse"
	"github.com/gopi-agent/gopi/core/config"
)

// The web app's ask endpoint and the client it is spoken to as, omp's.
const (
	perplexityWebAPIVersion = "2.18"
	perplexityWebUserAgent  = "Perplexity/641 CFNetwork/1568 Darwin/25.2.0"
)

// perplexityWebAuth is how the web endpoint is signed into: the browser
// session's cookies (PERPLEXITY_COOKIES), else a Perplexity sign-in's
// token.
type perplexityWebAuth struct {
	cookies, token string
}

// perplexityWebLogin finds the web session to use, nil for the API key:
// PERPLEXITY_COOKIES first, then a Perplexity sign-in stored in agent.db
// (an OAuth token; a stored "pplx-" API key is not one), as omp orders
// them.
func (s *Searcher) perplexityWebLogin(ctx context.Context) *perplexityWebAuth {
	if c := strings.TrimSpace(s.cfg.PerplexityCookies); c != "" {
		return &perplexityWebAuth{cookies: c}
	}
	if s.keys == nil || !strings.Contains(s.keys.KeySource("perplexity"), "agent.db") {
		return nil
	}
	key, _, source, err := s.keys.APIKeyContext(ctx, "perplexity")
	if err != nil || key == "" || !strings.Contains(source, "agent.db") || strings.HasPrefix(key, "pplx-") {
		return nil
	}
	return &perplexityWebAuth{token: key}
}

// perplexityWeb asks Perplexity's web app (POST
// www.perplexity.ai/rest/sse/perplexity_ask) as omp does with cookies or
// a sign-in: the research prompt and the query as one question, copilot
// mode on the web, incognito; the answer streams as snapshots that are
// merged until the final one.
func (s *Searcher) perplexityWeb(ctx context.Context, auth *perplexityWebAuth, p Params) (*Response, error) {
	requestID := newUUID()
	query := researchPrompt + "\n\n" + p.Query
	var recency any
	if p.Recency != "" {
		recency = p.Recency
	}
	body := map[string]any{
		"query_str": query,
		"params": map[string]any{
			"query_str": query, "search_focus": "internet", "mode": "copilot", "model_preference": "pplx_pro_upgraded",
			"sources": []string{"web"}, "attachments": []string{}, "frontend_uuid": newUUID(), "frontend_context_uuid": newUUID(),
			"version": perplexityWebAPIVersion, "language": "en-US", "timezone": localZone(), "search_recency_filter": recency,
			"is_incognito": true, "use_schematized_api": true, "skip_search_enabled": true,
		},
	}
	header := http.Header{
		"Accept": {"text/event-stream"}, "Origin": {"https://www.perplexity.ai"}, "Referer": {"https://www.perplexity.ai/"},
		"User-Agent": {perplexityWebUserAgent}, "X-App-Apiclient": {"default"}, "X-App-Apiversion": {perplexityWebAPIVersion},
		"X-Perplexity-Request-Reason": {"submit"}, "X-Request-Id": {requestID},
	}
	keyVar := config.EnvPerplexityCookies
	if auth.cookies != "" {
		header.Set("Cookie", auth.cookies)
	} else {
		header.Set("Authorization", "Bearer "+auth.token)
		keyVar = "the Perplexity sign-in stored in agent.db"
	}
	var raw rawBody
	if _, err := s.t.do(ctx, request{provider: Perplexity, keyVar: keyVar, method: http.MethodPost,
		url: s.baseURL(perplexityWebBase, "https://www.perplexity.ai") + "/rest/sse/perplexity_ask", header: header, body: body}, &raw); err != nil {
		return nil, err
	}
	r, err := perplexityWebEvents(raw, s.now())
	if err != nil {
		return nil, err
	}
	if r.RequestID == "" {
		r.RequestID = requestID
	}
	r.Sources = limitSources(r.Sources, p.Limit)
	return r, nil
}

// perplexityWebBase keys Options.BaseURLs with the web app's origin
// (tests).
const perplexityWebBase ID = "perplexity-web"

// pplxEvent is one snapshot of the web app's answer stream.
type pplxEvent struct {
	Status       *string       `json:"status"`
	Final        *bool         `json:"final"`
	Text         *string       `json:"text"`
	Blocks       []pplxBlock   `json:"blocks"`
	SourcesList  *[]pplxSource `json:"sources_list"`
	ErrorCode    string        `json:"error_code"`
	ErrorMessage string        `json:"error_message"`
	DisplayModel *string       `json:"display_model"`
	UUID         *string       `json:"uuid"`
}

// pplxBlock is a part of a snapshot, named by its intended usage.
type pplxBlock struct {
	IntendedUsage  string        `json:"intended_usage"`
	MarkdownBlock  *pplxMarkdown `json:"markdown_block"`
	WebResultBlock *struct {
		WebResults []struct {
			Name      string `json:"name"`
			URL       string `json:"url"`
			Snippet   string `json:"snippet"`
			Timestamp string `json:"timestamp"`
		} `json:"web_results"`
	} `json:"web_result_block"`
}

// pplxMarkdown is a text block: its answer, or its chunks from an offset.
type pplxMarkdown struct {
	Answer              *string   `json:"answer"`
	Chunks              *[]string `json:"chunks"`
	ChunkStartingOffset *int      `json:"chunk_starting_offset"`
}

// pplxSource is an entry of a snapshot's source list.
type pplxSource struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
	Date    string `json:"date"`
}

// perplexityWebEvents merges the stream's snapshots (until one is final
// or completed) into the answer, its sources (by URL, the latest
// description of each) and the model.
func perplexityWebEvents(raw []byte, now time.Time) (*Response, error) {
	r := &Response{Provider: Perplexity, AuthMode: "oauth", Sources: []Source{}}
	var merged pplxEvent
	var order []string
	byURL := map[string]Source{}
	rd := sse.NewReader(bytes.NewReader(raw))
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Error{Provider: Perplexity, Status: 500, Message: fmt.Sprintf("Perplexity answer stream could not be read (%v); try again or choose another provider with providers.webSearch", err)}
		}
		data := strings.TrimSpace(string(ev.Data))
		if data == "" {
			continue
		}
		if data == "[DONE]" {
			break
		}
		var in pplxEvent
		if err := json.Unmarshal([]byte(data), &in); err != nil {
			return nil, &Error{Provider: Perplexity, Status: 500, Message: fmt.Sprintf("Perplexity answered with malformed JSON (%v); try again, or choose another provider with providers.webSearch", err)}
		}
		if in.ErrorCode != "" {
			return nil, &Error{Provider: Perplexity, Status: 400, Message: "Perplexity stream error: " + firstNonEmpty(in.ErrorMessage, in.ErrorCode)}
		}
		merged = mergePplxEvent(merged, in)
		if a := pplxAnswer(&merged); a != "" {
			r.Answer = a
		}
		for _, src := range pplxSources(&merged, now) {
			if _, ok := byURL[src.URL]; !ok {
				order = append(order, src.URL)
			}
			byURL[src.URL] = src
		}
		if merged.DisplayModel != nil && *merged.DisplayModel != "" {
			r.Model = *merged.DisplayModel
		}
		if merged.UUID != nil && *merged.UUID != "" {
			r.RequestID = *merged.UUID
		}
		if (merged.Final != nil && *merged.Final) || (merged.Status != nil && *merged.Status == "COMPLETED") {
			break
		}
	}
	for _, u := range order {
		r.Sources = append(r.Sources, byURL[u])
	}
	return r, nil
}

// mergePplxEvent lays snapshot in over old: the fields it has replace
// old's; its blocks merge into old's by intended usage (a text block's
// chunks continue from its offset); the source list stays unless it has
// one.
func mergePplxEvent(old, in pplxEvent) pplxEvent {
	m := old
	if in.Status != nil {
		m.Status = in.Status
	}
	if in.Final != nil {
		m.Final = in.Final
	}
	if in.Text != nil {
		m.Text = in.Text
	}
	if in.SourcesList != nil {
		m.SourcesList = in.SourcesList
	}
	if in.DisplayModel != nil {
		m.DisplayModel = in.DisplayModel
	}
	if in.UUID != nil {
		m.UUID = in.UUID
	}
	if len(in.Blocks) == 0 {
		return m
	}
	var blocks []pplxBlock
	index := map[string]int{}
	for _, b := range old.Blocks {
		if b.IntendedUsage == "" {
			continue
		}
		if i, ok := index[b.IntendedUsage]; ok {
			blocks[i] = b
			continue
		}
		index[b.IntendedUsage] = len(blocks)
		blocks = append(blocks, b)
	}
	for _, b := range in.Blocks {
		if b.IntendedUsage == "" {
			continue
		}
		i, ok := index[b.IntendedUsage]
		if !ok {
			index[b.IntendedUsage] = len(blocks)
			blocks = append(blocks, b)
			continue
		}
		prev := blocks[i]
		next := b
		if b.WebResultBlock == nil {
			next.WebResultBlock = prev.WebResultBlock
		}
		if b.MarkdownBlock == nil {
			next.MarkdownBlock = prev.MarkdownBlock
		} else {
			next.MarkdownBlock = mergePplxMarkdown(prev.MarkdownBlock, b.MarkdownBlock)
		}
		blocks[i] = next
	}
	m.Blocks = blocks
	return m
}

// mergePplxMarkdown lays a text block over the previous one: its chunks
// replace those from their starting offset on.
func mergePplxMarkdown(old, in *pplxMarkdown) *pplxMarkdown {
	if old == nil {
		c := *in
		return &c
	}
	m := *old
	if in.Answer != nil {
		m.Answer = in.Answer
	}
	if in.ChunkStartingOffset != nil {
		m.ChunkStartingOffset = in.ChunkStartingOffset
	}
	if in.Chunks != nil {
		m.Chunks = in.Chunks
		if len(*in.Chunks) > 0 {
			off := 0
			if in.ChunkStartingOffset != nil {
				off = *in.ChunkStartingOffset
			}
			var chunks []string
			if off != 0 && old.Chunks != nil {
				chunks = append(chunks, (*old.Chunks)[:min(max(off, 0), len(*old.Chunks))]...)
			}
			chunks = append(chunks, *in.Chunks...)
			m.Chunks = &chunks
		}
	}
	return &m
}

// pplxAnswer is the answer a merged snapshot holds: its first markdown
// block's chunks (or answer), else the ask_text block's, else its text.
func pplxAnswer(e *pplxEvent) string {
	text := ""
	if e.Text != nil {
		text = *e.Text
	}
	if len(e.Blocks) == 0 {
		return text
	}
	blockText := func(match func(string) bool) string {
		for _, b := range e.Blocks {
			if b.MarkdownBlock == nil || !match(b.IntendedUsage) {
				continue
			}
			if c := b.MarkdownBlock.Chunks; c != nil && len(*c) > 0 {
				return strings.Join(*c, "")
			}
			if a := b.MarkdownBlock.Answer; a != nil {
				return *a
			}
			return ""
		}
		return ""
	}
	if a := blockText(func(u string) bool { return strings.Contains(u, "markdown") }); a != "" {
		return a
	}
	if a := blockText(func(u string) bool { return u == "ask_text" }); a != "" {
		return a
	}
	return text
}

// pplxSources are a merged snapshot's sources: its web results block's,
// else its source list.
func pplxSources(e *pplxEvent, now time.Time) []Source {
	var out []Source
	for _, b := range e.Blocks {
		if b.IntendedUsage != "web_results" {
			continue
		}
		if b.WebResultBlock != nil {
			for _, w := range b.WebResultBlock.WebResults {
				if w.URL != "" {
					out = append(out, Source{Title: firstNonEmpty(w.Name, w.URL), URL: w.URL, Snippet: w.Snippet, PublishedDate: w.Timestamp, AgeSeconds: ageOf(w.Timestamp, now)})
				}
			}
		}
		break
	}
	if len(out) > 0 || e.SourcesList == nil {
		return out
	}
	for _, src := range *e.SourcesList {
		if src.URL != "" {
			out = append(out, Source{Title: firstNonEmpty(src.Title, src.URL), URL: src.URL, Snippet: src.Snippet, PublishedDate: src.Date, AgeSeconds: ageOf(src.Date, now)})
		}
	}
	return out
}

// newUUID is a random version 4 UUID.
func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// localZone is the IANA name of the local time zone, "UTC" when it has
// none.
func localZone() string {
	if n := time.Local.String(); n != "" && n != "Local" {
		return n
	}
	return "UTC"
}
