package vertex

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/google"
)

func init() {
	ai.RegisterAPI(ai.APIGoogleVertex, func(c *http.Client) ai.Provider { return New(c, Settings{}) })
}

// Settings are Vertex AI's configuration, resolved by the caller (the model
// registry reads them from the environment).
type Settings struct {
	Project  string // Google Cloud project id (GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT)
	Location string // "global", a region such as "us-central1", or a multi-region "us"/"eu" (GOOGLE_CLOUD_LOCATION)
	// Host replaces the endpoint's host (GOOGLE_VERTEX_BASE_URL, read by
	// Google's SDK in omp) when the model's base URL is the catalogue's
	// template or empty; "" keeps the host the location picks.
	Host string
	// Credentials authorise requests without an API key; nil when no
	// application default credentials were found.
	Credentials Credentials
}

// Credentials supply OAuth access tokens for Vertex AI.
type Credentials interface {
	// Token returns a usable access token, fetching a new one (bounded by
	// ctx and a timeout) when the cached one is about to expire.
	Token(ctx context.Context) (string, error)
	// QuotaProject is the project billed for the requests ("" for the
	// credentials' own), sent as x-goog-user-project.
	QuotaProject() string
}

// Provider streams Gemini from Vertex AI.
type Provider struct {
	client   *http.Client
	settings Settings
}

// New returns a provider using client (http.DefaultClient when nil) and s.
func New(client *http.Client, s Settings) *Provider {
	return &Provider{client: google.WithRetryInfo(client), settings: s}
}

// API returns "google-vertex".
func (*Provider) API() ai.API { return ai.APIGoogleVertex }

// Stream starts the request; every failure ends the stream with an error event.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	return ai.StreamFunc(ctx, req, func(ctx context.Context, em *ai.Emitter) error { return p.stream(ctx, req, em) })
}

func (p *Provider) stream(ctx context.Context, req *ai.Request, em *ai.Emitter) error {
	key := apiKey(req.APIKey)
	headers := http.Header{}
	base := req.EffectiveBaseURL()
	if p.settings.Host != "" && (base == "" || strings.Contains(base, locationTemplate)) {
		base = p.settings.Host
	}
	var endpoint string
	var err error
	if key != "" {
		headers.Set("x-goog-api-key", key)
		endpoint = expressURL(base, req.Model.ID)
	} else {
		if endpoint, err = regionalURL(base, req.Model.ID, p.settings); err != nil {
			return err
		}
		if err := p.authorize(ctx, headers); err != nil {
			return err
		}
	}
	dec := google.NewDecoder(em, req.RequestID)
	payload := google.BuildPayload(req, google.PayloadOptions{CallSignature: google.SkipSignatureValidator})
	if err := google.Run(ctx, p.client, req, dec, google.Call{URL: endpoint, Headers: headers, Payload: payload}); err != nil {
		return err
	}
	return dec.Finish()
}

// ErrNoCredentials is the failure of a request with neither an API key nor
// application default credentials.
var ErrNoCredentials = errors.New("no credentials for Google Vertex AI: set GOOGLE_CLOUD_API_KEY, or run `gcloud auth application-default login` (or point GOOGLE_APPLICATION_CREDENTIALS at a service-account key file) and set GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION")

// authorize adds the bearer token and quota project of the credentials.
func (p *Provider) authorize(ctx context.Context, h http.Header) error {
	c := p.settings.Credentials
	if c == nil {
		return ErrNoCredentials
	}
	tok, err := c.Token(ctx)
	if err != nil {
		return err
	}
	h.Set("Authorization", "Bearer "+tok)
	if q := c.QuotaProject(); q != "" {
		h.Set("x-goog-user-project", q)
	}
	return nil
}

// apiKey returns key when it is a real key: the registry passes
// "<authenticated>" (omp's marker) when application default credentials
// stand in for one, and "N/A" is another such placeholder.
func apiKey(key string) string {
	key = strings.TrimSpace(key)
	if key == "" || strings.HasPrefix(key, "<") || key == "N/A" {
		return ""
	}
	return key
}

// ADCMarker is the key the registry reports for google-vertex when
// application default credentials, a project and a location are set (the
// same marker omp uses), so that the provider counts as signed in.
const ADCMarker = "<authenticated>"

// locationTemplate is the placeholder of the catalogue's base URL.
const locationTemplate = "{location}"

// globalHost serves the "global" location and express mode.
const globalHost = "https://aiplatform.googleapis.com"

// expressURL is the endpoint of an API-key request.
func expressURL(base, model string) string {
	host := base
	if host == "" || strings.Contains(host, locationTemplate) {
		host = globalHost
	}
	return ai.JoinURL(host, "v1/publishers/google/models/"+url.PathEscape(model)+":streamGenerateContent") + "?alt=sse"
}

// regionalURL is the endpoint of a request authorised by credentials, in
// the settings' project and location.
func regionalURL(base, model string, s Settings) (string, error) {
	if s.Project == "" {
		return "", errors.New("Google Vertex AI needs a project: set GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT), or use an API key (GOOGLE_CLOUD_API_KEY)")
	}
	if s.Location == "" {
		return "", errors.New("Google Vertex AI needs a location: set GOOGLE_CLOUD_LOCATION (for example us-central1 or global), or use an API key (GOOGLE_CLOUD_API_KEY)")
	}
	if strings.ContainsAny(s.Project+s.Location, "/?#") {
		return "", fmt.Errorf("Google Vertex AI project %q or location %q holds a character that cannot be part of the URL; check GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION", s.Project, s.Location)
	}
	host := base
	switch {
	case host != "" && !strings.Contains(host, locationTemplate):
		// an explicit host (models.yml, a proxy, a test server)
	case s.Location == "global":
		host = globalHost
	case s.Location == "us" || s.Location == "eu":
		host = "https://aiplatform." + s.Location + ".rep.googleapis.com"
	case host == "":
		host = "https://" + s.Location + "-aiplatform.googleapis.com"
	default:
		host = strings.ReplaceAll(host, locationTemplate, s.Location)
	}
	path := "v1/projects/" + s.Project + "/locations/" + s.Location + "/publishers/google/models/" + url.PathEscape(model) + ":streamGenerateContent"
	return ai.JoinURL(host, path) + "?alt=sse", nil
}
