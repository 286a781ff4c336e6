package hindsight

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout bounds one request when Client.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// Client talks to one Hindsight server.
type Client struct {
	BaseURL string        // e.g. http://localhost:8888, without a trailing slash
	Token   string        // sent as "Authorization: Bearer <Token>" when set
	HTTP    *http.Client  // nil: http.DefaultClient
	Timeout time.Duration // per request; 0 is DefaultTimeout
}

// Item is one memory to retain.
type Item struct {
	Content  string            `json:"content"`
	Context  string            `json:"context,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
	Tags     []string          `json:"tags,omitempty"`
	// DocumentID groups items into one server document; an auto-retained
	// transcript written again under the same id replaces the earlier.
	DocumentID string `json:"document_id,omitempty"`
}

// Memory is one recalled memory.
type Memory struct {
	Text        string `json:"text"`
	Type        string `json:"type,omitempty"`
	MentionedAt string `json:"mentioned_at,omitempty"`
}

// Query are the options of recall and reflect.
type Query struct {
	Budget    string   // low, mid or high
	MaxTokens int      // recall only; 0 leaves it to the server
	Types     []string // recall only
	Context   string   // reflect only
	Tags      []string // filter; matched "any"
}

// Retain writes items to bank in one request; async asks the server not
// to wait for its consolidation.
func (c *Client) Retain(ctx context.Context, bank string, items []Item, async bool) error {
	return c.do(ctx, "POST", "/memories", bank, "retain", map[string]any{"items": items, "async": async}, nil)
}

// Recall returns the memories of bank relevant to query.
func (c *Client) Recall(ctx context.Context, bank, query string, q Query) ([]Memory, error) {
	body := map[string]any{"query": query, "budget": budget(q.Budget, "mid")}
	if len(q.Types) > 0 {
		body["types"] = q.Types
	}
	if q.MaxTokens > 0 {
		body["max_tokens"] = q.MaxTokens
	}
	tags(body, q.Tags)
	var out struct {
		Results []Memory `json:"results"`
	}
	err := c.do(ctx, "POST", "/memories/recall", bank, "recall", body, &out)
	return out.Results, err
}

// Reflect returns the server's answer to query, reasoned over bank.
func (c *Client) Reflect(ctx context.Context, bank, query string, q Query) (string, error) {
	body := map[string]any{"query": query, "budget": budget(q.Budget, "low")}
	if q.Context != "" {
		body["context"] = q.Context
	}
	tags(body, q.Tags)
	var out struct {
		Text string `json:"text"`
	}
	err := c.do(ctx, "POST", "/reflect", bank, "reflect", body, &out)
	return out.Text, err
}

// SetMission sets bank's missions (creating the bank when missing).
func (c *Client) SetMission(ctx context.Context, bank, reflect, retain string) error {
	body := map[string]any{"reflect_mission": reflect}
	if retain != "" {
		body["retain_mission"] = retain
	}
	return c.do(ctx, "PUT", "", bank, "setting the bank's mission", body, nil)
}

func budget(b, def string) string {
	if b == "" {
		return def
	}
	return b
}

func tags(body map[string]any, t []string) {
	if len(t) > 0 {
		body["tags"], body["tags_match"] = t, "any"
	}
}

// do sends one request to /v1/default/banks/<bank><path> and decodes the
// answer into out (when not nil).
func (c *Client) do(ctx context.Context, method, path, bank, op string, body any, out any) error {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var payload io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		payload = bytes.NewReader(data)
	}
	seg, err := segment("bank id", bank)
	if err != nil {
		return fmt.Errorf("hindsight %s: %w", op, err)
	}
	u := c.BaseURL + "/v1/default/banks/" + seg + path
	req, err := http.NewRequestWithContext(ctx, method, u, payload)
	if err != nil {
		return fmt.Errorf("hindsight %s: %w", op, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "gopi")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return fmt.Errorf("hindsight %s: the server at %s did not answer within %s; check that it is running (hindsight.apiUrl)", op, c.BaseURL, timeout)
		}
		return fmt.Errorf("hindsight %s: %w; check hindsight.apiUrl (%s)", op, err, c.BaseURL)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return fmt.Errorf("hindsight %s: the server at %s stopped answering within %s", op, c.BaseURL, timeout)
		}
		return fmt.Errorf("hindsight %s: reading the answer: %w", op, err)
	}
	if resp.StatusCode/100 != 2 {
		return &HTTPError{Op: op, Status: resp.StatusCode, Detail: errorDetail(raw)}
	}
	if out == nil || len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("hindsight %s: the server's answer is not the expected JSON: %w", op, err)
	}
	return nil
}

// HTTPError is the server's refusal of a request.
type HTTPError struct {
	Op     string // what was asked, e.g. "recall"
	Status int    // the HTTP status
	Detail string // the server's explanation
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("hindsight %s failed (HTTP %d): %s", e.Op, e.Status, e.Detail)
}

// errorDetail is the "detail" or "message" of an error body, else the
// body itself, cut short.
func errorDetail(raw []byte) string {
	var e struct {
		Detail  any `json:"detail"`
		Message any `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil {
		for _, v := range []any{e.Detail, e.Message} {
			switch v := v.(type) {
			case string:
				return v
			case nil:
			default:
				b, _ := json.Marshal(v)
				return string(b)
			}
		}
	}
	s := strings.TrimSpace(string(raw))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// segment escapes s as one segment of a request's path, refusing the
// empty string, "." and "..", which would name another resource (the
// bank itself, say) once the path is resolved.
func segment(kind, s string) (string, error) {
	if s == "" || s == "." || s == ".." {
		return "", fmt.Errorf("%s %q cannot name a resource on the server; use a name with letters or digits", kind, s)
	}
	return url.PathEscape(s), nil
}
