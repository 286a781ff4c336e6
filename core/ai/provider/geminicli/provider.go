package geminicli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/google"
	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

func init() {
	ai.RegisterAPI(ai.APIGoogleGeminiCLI, func(c *http.Client) ai.Provider { return New(c, Settings{}) })
}

// Cloud Code Assist's hosts: Gemini CLI's, and Antigravity's two in the
// order they are tried when a model has no base URL.
const (
	DefaultEndpoint            = "https://cloudcode-pa.googleapis.com"
	AntigravityDailyEndpoint   = "https://daily-cloudcode-pa.googleapis.com"
	AntigravitySandboxEndpoint = "https://daily-cloudcode-pa.sandbox.googleapis.com"
)

// AntigravityProvider is the provider name whose models are Antigravity's
// (the other provider of this API is "google-gemini-cli").
const AntigravityProvider = "google-antigravity"

// Settings are the client versions the headers claim, read from the
// environment by the caller (the model registry).
type Settings struct {
	CLIVersion         string // PI_AI_GEMINI_CLI_VERSION; DefaultCLIVersion when empty
	AntigravityVersion string // PI_AI_ANTIGRAVITY_VERSION; DefaultAntigravityVersion when empty
}

// Retries of a reply without any content (the service sometimes ends a
// stream at once): up to emptyRetries more requests, waiting emptyBackoff,
// then twice that.
const (
	emptyRetries = 2
	emptyBackoff = 500 * time.Millisecond
)

// Provider streams from Cloud Code Assist.
type Provider struct {
	client   *http.Client
	settings Settings
	now      func() time.Time
	backoff  time.Duration // first wait before resending after an empty reply
	fallback []string      // Antigravity's hosts, in the order tried
	newID    func() string // Antigravity's request ids
}

// New returns a provider using client (http.DefaultClient when nil) and s.
func New(client *http.Client, s Settings) *Provider {
	p := &Provider{
		settings: s, now: time.Now, backoff: emptyBackoff,
		fallback: []string{AntigravityDailyEndpoint, AntigravitySandboxEndpoint},
		newID:    func() string { return "agent-" + newUUID() },
	}
	p.client = google.WithRetryHint(client, func(h http.Header, body []byte) time.Duration {
		return retryHint(h, body, p.now())
	})
	return p
}

// API returns "google-gemini-cli".
func (*Provider) API() ai.API { return ai.APIGoogleGeminiCLI }

// Stream starts the request; every failure ends the stream with an error event.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	return ai.StreamFunc(ctx, req, func(ctx context.Context, em *ai.Emitter) error { return p.stream(ctx, req, em) })
}

func (p *Provider) stream(ctx context.Context, req *ai.Request, em *ai.Emitter) error {
	m := req.Model
	antigravity := m.Provider == AntigravityProvider
	provider := m.Provider
	if provider == "" {
		provider = "google-gemini-cli"
	}
	creds, err := ParseCredentials(req.APIKey, provider)
	if err != nil {
		return err
	}
	if !creds.ExpiresAt.IsZero() && !p.now().Before(creds.ExpiresAt) {
		return fmt.Errorf("the %s sign-in expired at %s and was not refreshed; sign in again with `gopi login %s`", provider, creds.ExpiresAt.UTC().Format(time.RFC3339), provider)
	}
	call := google.Call{Headers: p.headers(m, creds.Token, antigravity), Payload: buildRequest(req, creds.ProjectID, antigravity, p.newID)}
	dec := google.NewEnvelopeDecoder(em, req.RequestID)
	hosts := p.endpoints(req.EffectiveBaseURL(), antigravity)
	for i, host := range hosts {
		call.URL = strings.TrimRight(host, "/") + "/v1internal:streamGenerateContent?alt=sse"
		err = google.Run(ctx, p.client, req, dec, call)
		if err == nil || i == len(hosts)-1 || !fallBack(ctx, dec, err) {
			break
		}
	}
	for retry := 0; err == nil && !dec.HasContent() && retry < emptyRetries; retry++ {
		if err = ctxsleep.Sleep(ctx, p.backoff<<retry); err != nil {
			break
		}
		dec.Reset()
		err = google.Run(ctx, p.client, req, dec, call)
	}
	if err != nil {
		return quotaError(err)
	}
	if !dec.HasContent() {
		return errors.New("Cloud Code Assist returned an empty response three times; try again, or pick another model")
	}
	return dec.Finish()
}

// headers are the bearer token and the client's identity.
func (p *Provider) headers(m *ai.Model, token string, antigravity bool) http.Header {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+token)
	if antigravity {
		h.Set("User-Agent", antigravityUserAgent(p.settings.AntigravityVersion))
		if strings.HasPrefix(m.ID, "claude-") && m.Reasoning {
			h.Set("anthropic-beta", claudeThinkingBeta)
		}
	} else {
		h.Set("User-Agent", cliUserAgent(p.settings.CLIVersion, m.ID))
		h.Set("Client-Metadata", clientMetadata)
	}
	return h
}

// endpoints are the hosts to try: the model's base URL, else Antigravity's
// daily and sandbox hosts or Gemini CLI's host.
func (p *Provider) endpoints(base string, antigravity bool) []string {
	if b := strings.TrimSpace(base); b != "" {
		return []string{b}
	}
	if antigravity {
		return p.fallback
	}
	return []string{DefaultEndpoint}
}

// fallBack reports whether a failed attempt may move on to the next host:
// nothing was streamed yet, the request was not cancelled, and the failure
// is transient (429 other than an exhausted quota, 5xx, a network error).
func fallBack(ctx context.Context, dec *google.Decoder, err error) bool {
	if dec.Started() || ctx.Err() != nil {
		return false
	}
	var he *ai.HTTPError
	if errors.As(err, &he) {
		return he.Retryable() && !quotaExhausted(he)
	}
	var se *ai.StallError
	return !errors.As(err, &se)
}

var quotaText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)quota|exhausted`) })

// quotaExhausted reports a 429 that waiting a little will not cure.
func quotaExhausted(he *ai.HTTPError) bool {
	return he.Status == http.StatusTooManyRequests && quotaText().MatchString(he.Message)
}

// QuotaError is a 429 whose message says the account's quota is used up;
// it is not retried (its text matches none of the retryable patterns).
type QuotaError struct {
	Message    string        // the service's message
	RetryAfter time.Duration // when the quota resets, if the service said
}

// Error names the API, the status and the service's message, then when the
// quota resets or what to do.
func (e *QuotaError) Error() string {
	s := "Cloud Code Assist API error (429): " + e.Message
	if e.RetryAfter > 0 {
		return s + " (the quota resets in " + e.RetryAfter.Round(time.Second).String() + ")"
	}
	return s + " (wait for the quota to reset, or pick another model)"
}

// quotaError turns an exhausted-quota 429 into a QuotaError.
func quotaError(err error) error {
	var he *ai.HTTPError
	if errors.As(err, &he) && quotaExhausted(he) {
		return &QuotaError{Message: he.Message, RetryAfter: he.RetryAfter}
	}
	return err
}
