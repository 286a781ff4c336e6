package websearch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai/provider/geminicli"
)

// Gemini grounding: the model it asks, and the model Gemini CLI's
// User-Agent names (omp's default).
const (
	geminiModel      = "gemini-2.5-flash"
	geminiAgentModel = "gemini-3.1-pro-preview"
)

// geminiLogins are the Google sign-ins Gemini grounding uses, in the
// order omp tries them.
var geminiLogins = []string{"google-gemini-cli", geminicli.AntigravityProvider}

// geminiAuth is a usable Google sign-in.
type geminiAuth struct {
	creds       geminicli.Credentials
	antigravity bool
	login       string // the sign-in's provider name
	key         string // the stored key the credentials were read from
}

// gemini asks Gemini with Google Search grounding through Cloud Code
// Assist (POST <host>/v1internal:streamGenerateContent?alt=sse, the
// sign-in's bearer token and project, the googleSearch tool), as omp
// does: the answer is the model's text, the sources the grounding
// chunks, the citations the grounding supports. Antigravity's sign-in
// tries its daily host, then its sandbox host when the first is
// unreachable or answers 429 or 5xx.
func (s *Searcher) gemini(ctx context.Context, p Params) (*Response, error) {
	auth, err := s.geminiAuth(ctx)
	if err != nil {
		return nil, err
	}
	body := s.geminiBody(auth, p)
	hosts := []string{s.baseURL(Gemini, geminicli.DefaultEndpoint)}
	version := s.cfg.GeminiCLIVersion
	if auth.antigravity {
		hosts = []string{s.baseURL(Gemini, geminicli.AntigravityDailyEndpoint), s.baseURL(geminiSandbox, geminicli.AntigravitySandboxEndpoint)}
		version = s.cfg.AntigravityVersion
	}
	header := geminicli.IdentityHeaders(auth.antigravity, version, geminiAgentModel)
	header.Set("Accept", "text/event-stream")
	raw, err := s.geminiSend(ctx, auth, hosts, header, body)
	if err != nil {
		return nil, err
	}
	r := geminiEvents(raw)
	r.Sources = limitSources(r.Sources, firstPositive(p.NumSearchResults, p.Limit))
	return r, nil
}

// geminiSandbox keys Options.BaseURLs with Antigravity's second host
// (tests).
const geminiSandbox ID = "gemini-sandbox"

// Gemini's retry budget, omp's: each host is asked again up to
// geminiRetries times after a failure worth retrying (no connection, 429,
// 500, 502, 503, 504), after the wait the answer asks for plus a second,
// or else geminiBackoff doubled at each attempt; the waits 429s ask for
// add up to at most geminiRateBudget per search, and a 429 asking for
// more gives up on the host. A refused token (401, 403, or a 400 calling the
// credentials invalid) is refreshed and the request sent again, once per
// host. A request that stalled after connecting is not sent again: it
// has already used its whole first-byte or idle limit.
const (
	geminiRetries    = 3
	geminiBackoff    = time.Second
	geminiRateBudget = 5 * time.Minute
	geminiHintMargin = time.Second // added to a wait the answer asks for, as omp
)

// geminiInvalidKey matches a 400's message that means the token was
// refused.
var geminiInvalidKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)api key not valid|invalid credentials|invalid authentication`)
})

// geminiSend posts body to the first host that answers, under Gemini's
// retry budget; Antigravity's sign-in goes on to its next host when one
// stays unreachable or keeps answering 429 or 5xx.
func (s *Searcher) geminiSend(ctx context.Context, auth *geminiAuth, hosts []string, header http.Header, body any) (rawBody, error) {
	var raw rawBody
	var err error
	var rateWaited time.Duration
	for _, host := range hosts {
	attempts:
		for attempt := 0; ; attempt++ {
			header.Set("Authorization", "Bearer "+auth.creds.Token)
			_, err = s.t.do(ctx, request{provider: Gemini, keyVar: "the Google sign-in (gopi login google-gemini-cli or google-antigravity)", method: http.MethodPost,
				url: host + "/v1internal:streamGenerateContent?alt=sse", header: header, body: body}, &raw)
			if err == nil {
				return raw, nil
			}
			var e *Error
			if ctx.Err() != nil || !errors.As(err, &e) {
				return nil, err
			}
			if attempt == 0 && geminiAuthRefused(e) && s.renewGemini(ctx, auth) {
				continue
			}
			if !geminiRetryable(e) {
				return nil, err
			}
			if attempt == geminiRetries {
				break
			}
			wait := s.backoff << attempt
			if e.RetryAfter > 0 {
				wait = e.RetryAfter + geminiHintMargin
				if e.Status == http.StatusTooManyRequests {
					if rateWaited+wait > geminiRateBudget {
						break attempts
					}
					rateWaited += wait
				}
			}
			if serr := s.sleep(ctx, wait); serr != nil {
				return nil, &Error{Provider: Gemini, Message: "Gemini search was cancelled"}
			}
		}
	}
	return nil, err
}

// geminiRetryable reports whether a failed request is worth sending
// again: it could not connect, or the answer was 429, 500, 502, 503 or
// 504.
func geminiRetryable(e *Error) bool {
	switch e.Status {
	case 0:
		return e.unreachable
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// geminiAuthRefused reports whether the answer refused the token.
func geminiAuthRefused(e *Error) bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden ||
		(e.Status == http.StatusBadRequest && geminiInvalidKey().MatchString(e.Message))
}

// KeyRenewer is Keys that can refresh a stored sign-in whose token a
// provider refused before it expired (core/ai/models.Registry is one).
type KeyRenewer interface {
	RenewKey(ctx context.Context, provider, stale string) (string, error)
}

// renewGemini replaces auth's token with a refreshed one; false when
// the credential store cannot renew it.
func (s *Searcher) renewGemini(ctx context.Context, auth *geminiAuth) bool {
	r, ok := s.keys.(KeyRenewer)
	if !ok {
		return false
	}
	key, err := r.RenewKey(ctx, auth.login, auth.key)
	if err != nil || key == "" || key == auth.key {
		return false
	}
	c, err := geminicli.ParseCredentials(key, auth.login)
	if err != nil {
		return false
	}
	auth.creds, auth.key = c, key
	return true
}

// geminiAuth finds the first Google sign-in with an access token and a
// project (refreshed first when it is about to expire).
func (s *Searcher) geminiAuth(ctx context.Context) (*geminiAuth, error) {
	var last error
	if s.keys != nil {
		for _, name := range geminiLogins {
			if s.keys.KeySource(name) == "" {
				continue
			}
			key, _, _, err := s.keys.APIKeyContext(ctx, name)
			if key == "" {
				if err != nil {
					last = err
				}
				continue
			}
			c, err := geminicli.ParseCredentials(key, name)
			if err != nil {
				last = err
				continue
			}
			return &geminiAuth{creds: c, antigravity: name == geminicli.AntigravityProvider, login: name, key: key}, nil
		}
	}
	msg := "Gemini web search needs a Google sign-in: run `gopi login google-gemini-cli` or `gopi login google-antigravity`"
	if last != nil {
		msg = fmt.Sprintf("Gemini web search could not use the Google sign-in (%v); sign in again with `gopi login google-gemini-cli`", last)
	}
	return nil, &Error{Provider: Gemini, Message: msg}
}

// geminiBody is the Cloud Code Assist request: the project, the model,
// the query with the googleSearch tool, the system instruction (after
// Antigravity's identity for its sign-in) and the caller's metadata.
func (s *Searcher) geminiBody(auth *geminiAuth, p Params) map[string]any {
	parts := []map[string]string{}
	if auth.antigravity {
		id := geminicli.AntigravityIdentity()
		parts = append(parts, map[string]string{"text": id}, map[string]string{"text": "Please ignore following [ignore]" + id + "[/ignore]"})
	}
	parts = append(parts, map[string]string{"text": researchPrompt})
	system := map[string]any{"parts": parts}
	if auth.antigravity {
		system["role"] = "user"
	}
	req := map[string]any{
		"contents":          []any{map[string]any{"role": "user", "parts": []any{map[string]string{"text": p.Query}}}},
		"tools":             []any{map[string]any{"googleSearch": map[string]any{}}},
		"systemInstruction": system,
	}
	gen := map[string]any{}
	if p.MaxTokens > 0 {
		gen["maxOutputTokens"] = p.MaxTokens
	}
	if p.Temperature != nil {
		gen["temperature"] = *p.Temperature
	}
	if len(gen) > 0 {
		req["generationConfig"] = gen
	}
	body := map[string]any{"project": auth.creds.ProjectID, "model": geminiModel, "request": req}
	if auth.antigravity {
		body["requestType"], body["userAgent"], body["requestId"] = "agent", "antigravity", "agent-"+randomHex(16)
	} else {
		body["userAgent"], body["requestId"] = "pi-coding-agent", "pi-"+strconv.FormatInt(s.now().UnixMilli(), 10)+"-"+randomHex(5)[:9]
	}
	return body
}

// randomHex is n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// geminiChunk is one event of the Cloud Code Assist stream.
type geminiChunk struct {
	Response *struct {
		Candidates []struct {
			Content *struct {
				Parts []struct {
					Text string `json:"text"`
				} `json:"parts"`
			} `json:"content"`
			GroundingMetadata *struct {
				GroundingChunks []struct {
					Web *struct {
						URI   string `json:"uri"`
						Title string `json:"title"`
					} `json:"web"`
				} `json:"groundingChunks"`
				GroundingSupports []struct {
					Segment *struct {
						Text string `json:"text"`
					} `json:"segment"`
					GroundingChunkIndices []int `json:"groundingChunkIndices"`
				} `json:"groundingSupports"`
				WebSearchQueries []string `json:"webSearchQueries"`
			} `json:"groundingMetadata"`
		} `json:"candidates"`
		UsageMetadata *struct {
			PromptTokenCount     int `json:"promptTokenCount"`
			CandidatesTokenCount int `json:"candidatesTokenCount"`
			TotalTokenCount      int `json:"totalTokenCount"`
		} `json:"usageMetadata"`
		ModelVersion string `json:"modelVersion"`
	} `json:"response"`
}

// geminiEvents reads the stream: "data:" lines of JSON (others, and
// lines that are not JSON, are skipped, as omp does).
func geminiEvents(raw []byte) *Response {
	r := &Response{Provider: Gemini, Model: geminiModel, Sources: []Source{}}
	var answer strings.Builder
	seen := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		data, ok := strings.CutPrefix(line, "data:")
		data = strings.TrimSpace(data)
		if !ok || data == "" {
			continue
		}
		var c geminiChunk
		if json.Unmarshal([]byte(data), &c) != nil || c.Response == nil {
			continue
		}
		if len(c.Response.Candidates) > 0 {
			cand := c.Response.Candidates[0]
			if cand.Content != nil {
				for _, part := range cand.Content.Parts {
					answer.WriteString(part.Text)
				}
			}
			if g := cand.GroundingMetadata; g != nil {
				for _, ch := range g.GroundingChunks {
					if ch.Web != nil && ch.Web.URI != "" && !seen[ch.Web.URI] {
						seen[ch.Web.URI] = true
						r.Sources = append(r.Sources, Source{Title: firstNonEmpty(ch.Web.Title, ch.Web.URI), URL: ch.Web.URI})
					}
				}
				for _, sup := range g.GroundingSupports {
					cited := ""
					if sup.Segment != nil {
						cited = sup.Segment.Text
					}
					for _, i := range sup.GroundingChunkIndices {
						if i >= 0 && i < len(g.GroundingChunks) && g.GroundingChunks[i].Web != nil && g.GroundingChunks[i].Web.URI != "" {
							w := g.GroundingChunks[i].Web
							r.Citations = append(r.Citations, Citation{URL: w.URI, Title: firstNonEmpty(w.Title, w.URI), CitedText: cited})
						}
					}
				}
				for _, q := range g.WebSearchQueries {
					if !containsString(r.SearchQueries, q) {
						r.SearchQueries = append(r.SearchQueries, q)
					}
				}
			}
		}
		if u := c.Response.UsageMetadata; u != nil {
			in, out, total := u.PromptTokenCount, u.CandidatesTokenCount, u.TotalTokenCount
			r.Usage = &Usage{InputTokens: &in, OutputTokens: &out, TotalTokens: &total}
		}
		if c.Response.ModelVersion != "" {
			r.Model = c.Response.ModelVersion
		}
	}
	r.Answer = answer.String()
	return r
}

// containsString reports whether ss holds s.
func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
