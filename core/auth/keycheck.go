package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// KeyCheck is how a pasted API key is tried before it is stored, for the
// providers omp tries keys of: a GET of a models list, or a one-token chat
// completion.
type KeyCheck struct {
	Label     string // the provider's name in the error ("Cerebras")
	ModelsURL string // GET with the key as a bearer token; "" for a chat check
	ChatURL   string // OpenAI-compatible API root for POST /chat/completions
	Model     string // the model of the chat check
}

// keyChecks are omp 14.9.9's validations (its API-key logins), by provider.
var keyChecks = map[string]KeyCheck{
	"cerebras":  {Label: "Cerebras", ChatURL: "https://api.cerebras.ai/v1", Model: "gpt-oss-120b"},
	"moonshot":  {Label: "moonshot", ChatURL: "https://api.moonshot.ai/v1", Model: "kimi-k2.5"},
	"synthetic": {Label: "Synthetic", ChatURL: "https://api.synthetic.new/openai/v1", Model: "hf:moonshotai/Kimi-K2.5"},
	"together":  {Label: "together", ChatURL: "https://api.together.xyz/v1", Model: "moonshotai/Kimi-K2.5"},
	"fireworks": {Label: "Fireworks", ModelsURL: "https://api.fireworks.ai/inference/v1/models"},
	"nanogpt":   {Label: "NanoGPT", ModelsURL: "https://nano-gpt.com/api/v1/models"},
	"zenmux":    {Label: "ZenMux", ModelsURL: "https://zenmux.ai/api/v1/models"},
}

// KeyCheckFor returns the check omp makes of provider's keys.
func KeyCheckFor(provider string) (KeyCheck, bool) {
	c, ok := keyChecks[provider]
	return c, ok
}

// KeyCheckTimeout bounds one check, omp's 15 seconds.
const KeyCheckTimeout = 15 * time.Second

// Check tries key against the provider; a refusal is an error with the
// status and the start of what the server said (never the key).
func (k KeyCheck) Check(ctx context.Context, client *http.Client, key string) error {
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, KeyCheckTimeout)
	defer cancel()
	var req *http.Request
	var err error
	if k.ModelsURL != "" {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, k.ModelsURL, nil)
	} else {
		body, _ := json.Marshal(map[string]any{
			"model":       k.Model,
			"messages":    []map[string]string{{"role": "user", "content": "ping"}},
			"max_tokens":  1,
			"temperature": 0,
		})
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(k.ChatURL, "/")+"/chat/completions", bytes.NewReader(body))
		if req != nil {
			req.Header.Set("Content-Type", "application/json")
		}
	}
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s API key validation failed: %w", k.Label, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	detail, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	msg := fmt.Sprintf("%s API key validation failed (%d)", k.Label, resp.StatusCode)
	text := string(detail)
	if key != "" {
		text = strings.ReplaceAll(text, key, "…")
	}
	if d := oneLine(text); d != "" {
		msg += ": " + d
	}
	return fmt.Errorf("%s", msg)
}
