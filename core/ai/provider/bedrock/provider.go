package bedrock

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/smithy-go/auth/bearer"

	"github.com/gopi-agent/gopi/core/ai"
)

func init() {
	ai.RegisterAPI(ai.APIBedrockConverseStream, func(c *http.Client) ai.Provider { return New(c) })
}

// Provider streams Bedrock ConverseStream responses. It keeps the AWS
// session (configuration and credentials cache) of the last
// environment it saw, so refreshed credentials (SSO, assumed roles) are
// fetched once per expiry rather than once per request; keep one Provider
// per process (the model registry does).
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
// request's key (a Bedrock API key) or the SDK's own defaults. The model
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

		sess, err := loadSession(ctx, s)
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
	t := &transport{client: p.client, req: req}
	token := req.APIKey
	if token == "" {
		token = s.BearerToken
	}
	endpoint := s.Endpoint
	if base := req.EffectiveBaseURL(); base != "" && !isRegionalEndpoint(base) {
		endpoint = strings.TrimRight(base, "/")
	}
	// A client per request: the SDK's event-stream decoder keeps its
	// buffer in the client's protocol, so concurrent streams on one client
	// race (found with -race). The credentials cache lives in sess.cfg and
	// is shared.
	client := bedrockruntime.NewFromConfig(sess.cfg)
	out, err := client.ConverseStream(ctx, in, func(o *bedrockruntime.Options) {
		o.HTTPClient = t
		o.Retryer = aws.NopRetryer{} // the agent retries whole messages
		o.Interceptors.AddAfterSerialization(payloadHook{req: req})
		o.APIOptions = append(o.APIOptions, headersOption(req))
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
		// Choose the scheme here, whatever the SDK found in the process
		// environment: a Bedrock API key (bearer), else SigV4.
		if token != "" {
			o.BearerAuthTokenProvider = bearer.StaticTokenProvider{Token: bearer.Token{Value: token}}
			o.AuthSchemePreference = []string{"httpBearerAuth"}
		} else {
			o.BearerAuthTokenProvider = nil
			o.AuthSchemePreference = []string{"sigv4"}
		}
	})
	if err != nil {
		return mapError(err, sess, req.Model.ID, t.responseHeader(), req.RequestID)
	}
	es := out.GetStream()
	defer es.Close()
	d := newDecoder(em)
	for {
		select {
		case ev, ok := <-es.Events():
			if !ok {
				if err := es.Err(); err != nil {
					return streamError(err)
				}
				if !d.stopped {
					return ai.ErrStreamEnded
				}
				return nil
			}
			if err := d.event(ev); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// isRegionalEndpoint reports whether base is a public Bedrock runtime
// endpoint (https://bedrock-runtime.REGION.amazonaws.com), which the
// catalog lists as every model's base URL: those are left to the SDK's
// resolution from the configured region rather than pinned to the region
// in the URL.
func isRegionalEndpoint(base string) bool {
	host, ok := strings.CutPrefix(strings.TrimRight(base, "/"), "https://bedrock-runtime")
	if !ok {
		return false
	}
	host = strings.TrimPrefix(host, "-fips")
	return strings.HasPrefix(host, ".") && (strings.HasSuffix(host, ".amazonaws.com") || strings.HasSuffix(host, ".amazonaws.com.cn")) && !strings.Contains(host, "/")
}
