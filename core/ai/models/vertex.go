package models

import (
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/geminicli"
	"github.com/gopi-agent/gopi/core/ai/provider/vertex"
)

// The Google Cloud providers: Vertex AI (an API key, or application
// default credentials with a project and location) and Cloud Code Assist
// behind the Gemini CLI and Antigravity sign-ins (the catalogue lists them
// and their models). Their providers read no environment; the registry
// resolves their settings here and builds them (cloudProvider), and
// reports a Vertex AI key or application default credentials as the
// credential of any provider whose API is google-vertex (ambientKey).
const (
	envVertexKey      = "GOOGLE_CLOUD_API_KEY"
	envProject        = "GOOGLE_CLOUD_PROJECT"
	envProjectAlt     = "GCLOUD_PROJECT"
	envLocation       = "GOOGLE_CLOUD_LOCATION"
	envVertexBaseURL  = "GOOGLE_VERTEX_BASE_URL"
	envCLIVersion     = "PI_AI_GEMINI_CLI_VERSION"
	envAntigravityVer = "PI_AI_ANTIGRAVITY_VERSION"
)

// adcSource names application default credentials as a key source.
const adcSource = "application default credentials"

// googleCloud is the registry's Vertex AI credentials: loaded from the
// credentials file on first use and kept, so that their access token is
// cached across requests.
type googleCloud struct {
	mu   sync.Mutex
	path string
	adc  *vertex.ADC
}

// vertexSettings are the project, location and credentials file from the
// environment.
func (r *Registry) vertexSettings() (project, location, credentials string) {
	project = strings.TrimSpace(r.getenv(envProject))
	if project == "" {
		project = strings.TrimSpace(r.getenv(envProjectAlt))
	}
	return project, strings.TrimSpace(r.getenv(envLocation)), vertex.CredentialsPath(r.getenv)
}

// ambientKey is the credential a provider has beyond its own key
// variables: for a Vertex AI provider GOOGLE_CLOUD_API_KEY, else
// vertex.ADCMarker when a credentials file exists and a project and
// location are set (omp's rule).
func (r *Registry) ambientKey(p *ProviderInfo) (key, source string) {
	if p.API != ai.APIGoogleVertex {
		return "", ""
	}
	if k := strings.TrimSpace(r.getenv(envVertexKey)); k != "" {
		return k, "env " + envVertexKey
	}
	project, location, path := r.vertexSettings()
	if project == "" || location == "" || path == "" {
		return "", ""
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return "", ""
	}
	return vertex.ADCMarker, adcSource
}

// ambientHint tells how to give a provider its credential without a key.
func ambientHint(p *ProviderInfo) string {
	switch p.API {
	case ai.APIGoogleVertex:
		h := "or run `gcloud auth application-default login` (or set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file) and set " + envProject + " and " + envLocation
		for _, k := range p.KeyEnv {
			if k == envVertexKey {
				return h
			}
		}
		return "set " + envVertexKey + " " + h
	case ai.APIGoogleGeminiCLI:
		return "or sign in with `gopi login " + p.Name + "`"
	}
	return ""
}

// cloudProvider builds the provider for a prepared request to a Google
// Cloud model with the settings from the environment, or returns nil for
// other APIs (the provider registered with core/ai serves them). Vertex AI
// credentials are loaded only when the request has no key of its own; a
// credentials file that exists but cannot be used is then an error.
func (r *Registry) cloudProvider(req *ai.Request, client *http.Client) (ai.Provider, error) {
	switch req.Model.API {
	case ai.APIGoogleVertex:
		project, location, path := r.vertexSettings()
		s := vertex.Settings{Project: project, Location: location, Host: strings.TrimSpace(r.getenv(envVertexBaseURL))}
		if req.APIKey == vertex.ADCMarker || req.APIKey == "" {
			adc, err := r.cloud.credentials(path, client)
			if err != nil {
				return nil, err
			}
			if adc != nil {
				s.Credentials = adc
			}
		}
		return vertex.New(client, s), nil
	case ai.APIGoogleGeminiCLI:
		return geminicli.New(client, geminicli.Settings{
			CLIVersion:         strings.TrimSpace(r.getenv(envCLIVersion)),
			AntigravityVersion: strings.TrimSpace(r.getenv(envAntigravityVer)),
		}), nil
	}
	return nil, nil
}

// credentials returns the credentials in the file at path, loading them
// the first time (or when the path changed); nil when there is no file.
func (g *googleCloud) credentials(path string, client *http.Client) (*vertex.ADC, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.adc != nil && g.path == path {
		return g.adc, nil
	}
	if path == "" {
		return nil, nil
	}
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return nil, nil
	}
	adc, err := vertex.LoadADC(path, client)
	if err != nil {
		return nil, err
	}
	g.path, g.adc = path, adc
	return adc, nil
}
