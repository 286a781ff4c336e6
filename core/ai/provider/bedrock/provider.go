package bedrock

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

func init() {
	ai.RegisterAPI(ai.APIBedrockConverseStream, func(c *http.Client) ai.Provider { return New(c) })
}

// Provider streams Bedrock ConverseStream responses. It keeps the AWS
// session (region, credential source and cache) of the last environment
// it saw, so a profile's credential_process runs once per expiry rather
// than once per request; keep one Provider per process (the model
// registry does).
type Provider struct {
	client *http.Client
	getenv func(string) string // the environment the AWS settings come from; nil: none

	mu      sync.Mutex
	key     string   // settings.key() of sess
	sess    *session // nil until the first request
	loading chan struct{}
}

// New returns a provider using client for Bedrock requests (nil means
// http.DefaultClient) that takes no settings from the environment: only a
// request's key (a Bedrock API key), in us-east-1. The model
// registry builds its providers with NewWithEnv.
func New(client *http.Client) *Provider { return NewWithEnv(client, nil) }

// NewWithEnv returns a provider that reads region, endpoint and
// credentials settings (the AWS_* variables) through getenv.
func NewWithEnv(client *http.Client, getenv func(string) string) *Provider {
	if client == nil {
		client = http.DefaultClient
	}
	return &Provider{client: client, getenv: getenv}
}

// API returns ai.APIBedrockConverseStream.
func (*Provider) API() ai.API { return ai.APIBedrockConverseStream }

// Stream starts the request; every failure ends the stream with an error
// event.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	return ai.StreamFunc(ctx, req, func(ctx context.Context, em *ai.Emitter) error { return p.stream(ctx, req, em) })
}

// session returns the session for s, loading it when the environment
// changed since the last request. Concurrent requests share one load.
func (p *Provider) session(ctx context.Context, s settings) (*session, error) {
	key := s.key()
	for {
		p.mu.Lock()
		if p.sess != nil && p.key == key {
			sess := p.sess
			p.mu.Unlock()
			return sess, nil
		}
		if wait := p.loading; wait != nil {
			p.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		done := make(chan struct{})
		p.loading = done
		p.mu.Unlock()

		sess, err := loadSession(s)
		p.mu.Lock()
		if err == nil {
			p.sess, p.key = sess, key
		}
		p.loading = nil
		close(done)
		p.mu.Unlock()
		return sess, err
	}
}

func (p *Provider) stream(ctx context.Context, req *ai.Request, em *ai.Emitter) error {
	s := readSettings(p.getenv)
	sess, err := p.session(ctx, s)
	if err != nil {
		return err
	}
	in, err := buildInput(req, s.ForceCache)
	if err != nil {
		return err
	}
	token := req.APIKey
	if token == "" {
		token = s.BearerToken
	}
	endpoint := endpointFor(s, req, sess.region)
	if token != "" && !strings.HasPrefix(endpoint, "https://") {
		return errors.New("a Bedrock API key is only sent over HTTPS: give an https:// base URL (models.yml or AWS_ENDPOINT_URL_BEDROCK_RUNTIME), or sign with AWS credentials instead of AWS_BEARER_TOKEN_BEDROCK")
	}
	var creds credentials
	if token == "" {
		if sess.bearer {
			return &CredentialsError{Source: sess.source, Err: errors.New("no Bedrock API key")}
		}
		if sess.static == nil && sess.process == "" {
			return &CredentialsError{Source: sess.source, Err: errors.New("none found")}
		}
		if creds, err = sess.credentials(ctx); err != nil {
			return err
		}
	}
	hr, err := newRequest(ctx, req, endpoint, in)
	if err != nil {
		return err
	}
	if token != "" {
		hr.Header.Set("Authorization", "Bearer "+token)
	} else if err := sign(ctx, hr, creds, sess.region, time.Now()); err != nil {
		return err
	}
	resp, err := ai.Send(p.client, req, hr)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if req.OnResponse != nil {
		req.OnResponse(ctx, &ai.ProviderResponse{RequestID: req.RequestID, Model: req.Model, Status: resp.StatusCode, Headers: resp.Header.Clone()})
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return responseError(resp, sess.region, req.Model.ID, req.RequestID)
	}
	return readStream(ctx, resp.Body, newDecoder(em))
}

// endpointFor returns the Bedrock runtime endpoint: AWS_ENDPOINT_URL_*,
// else a model base URL that is not a public regional endpoint (a proxy, a
// test server), else the public endpoint of the region.
func endpointFor(s settings, req *ai.Request, region string) string {
	if s.Endpoint != "" {
		return strings.TrimRight(s.Endpoint, "/")
	}
	base := req.EffectiveBaseURL()
	if base != "" && !isRegionalEndpoint(base) {
		return strings.TrimRight(base, "/")
	}
	host := "bedrock-runtime"
	if strings.HasPrefix(base, "https://bedrock-runtime-fips.") {
		host += "-fips"
	}
	suffix := ".amazonaws.com"
	if strings.HasPrefix(region, "cn-") {
		suffix += ".cn"
	}
	return "https://" + host + "." + region + suffix
}

// newRequest builds the ConverseStream request for in through
// ai.NewRequest (the before_provider_request hook may replace the body:
// what it returns is what gets signed and sent). The model id is escaped
// into the path as AWS escapes it, which the signature covers.
func newRequest(ctx context.Context, req *ai.Request, endpoint string, in *converseRequest) (*http.Request, error) {
	if _, err := url.Parse(endpoint); err != nil {
		return nil, fmt.Errorf("the Bedrock endpoint %q is not a valid URL (fix the base URL or AWS_ENDPOINT_URL_BEDROCK_RUNTIME): %w", endpoint, err)
	}
	target := endpoint + "/model/" + escapeSegment(req.Model.ID) + "/converse-stream"
	return ai.NewRequest(ctx, req, target, http.Header{"Accept": {eventStreamType}}, in)
}

// escapeSegment percent-encodes a path segment as AWS does: everything
// but letters, digits and -._~ (so the ":" of model ids becomes %3A).
func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// isRegionalEndpoint reports whether base is a public Bedrock runtime
// endpoint (https://bedrock-runtime.REGION.amazonaws.com), which the
// catalog lists as every model's base URL: those follow the configured
// region rather than pin the region in the URL.
func isRegionalEndpoint(base string) bool {
	host, ok := strings.CutPrefix(strings.TrimRight(base, "/"), "https://bedrock-runtime")
	if !ok {
		return false
	}
	host = strings.TrimPrefix(host, "-fips")
	return strings.HasPrefix(host, ".") && (strings.HasSuffix(host, ".amazonaws.com") || strings.HasSuffix(host, ".amazonaws.com.cn")) && !strings.Contains(host, "/")
}
