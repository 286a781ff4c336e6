package models

import (
	"net/http"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/bedrock"
)

// BedrockProvider is Amazon Bedrock's provider name, as in omp.
const BedrockProvider = "amazon-bedrock"

// bedrockInfo describes Amazon Bedrock for a catalog that does not list it
// yet. Its key, when one is set (AWS_BEARER_TOKEN_BEDROCK, a stored key or
// --api-key), is a Bedrock API key sent as a bearer token; without one the
// provider signs with the AWS credential chain (see awsAuthSource).
func bedrockInfo() *ProviderInfo {
	return &ProviderInfo{
		Name: BedrockProvider, Title: "Amazon Bedrock", API: ai.APIBedrockConverseStream,
		BaseURL: "https://bedrock-runtime.us-east-1.amazonaws.com",
		KeyEnv:  []string{"AWS_BEARER_TOKEN_BEDROCK"},
	}
}

// awsKeyHint tells the user how to give Bedrock credentials.
const awsKeyHint = "set AWS_PROFILE (a profile with keys or a credential_process, after `aws configure`), AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK"

// AmbientAuth returns where a provider that signs with the AWS credential
// chain (Bedrock) would take its credentials from ("env AWS_PROFILE", …),
// or "" when the provider uses keys or the environment names no AWS
// credentials.
func (r *Registry) AmbientAuth(provider string) string { return r.ambientAuth(provider) }

// awsAuthSource returns where the AWS credential chain would find
// credentials for a provider that uses it, judged from the environment as
// omp judges it (a profile, static keys, a Bedrock API key, container or
// web identity credentials), or "" when nothing says so. The chain itself
// runs in the provider; this only decides whether a model has auth.
func (r *Registry) awsAuthSource(provider string) string {
	p, ok := r.byName[provider]
	if !ok || p.API != ai.APIBedrockConverseStream {
		return ""
	}
	set := func(name string) bool { return strings.TrimSpace(r.getenv(name)) != "" }
	switch {
	case set("AWS_PROFILE"):
		return "env AWS_PROFILE"
	case set("AWS_ACCESS_KEY_ID") && set("AWS_SECRET_ACCESS_KEY"):
		return "env AWS_ACCESS_KEY_ID"
	case set("AWS_BEARER_TOKEN_BEDROCK"):
		return "env AWS_BEARER_TOKEN_BEDROCK"
	case set("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") || set("AWS_CONTAINER_CREDENTIALS_FULL_URI"):
		return "env AWS_CONTAINER_CREDENTIALS_*"
	case set("AWS_WEB_IDENTITY_TOKEN_FILE") && set("AWS_ROLE_ARN"):
		return "env AWS_WEB_IDENTITY_TOKEN_FILE"
	case set("AWS_BEDROCK_SKIP_AUTH"):
		return "env AWS_BEDROCK_SKIP_AUTH"
	}
	return ""
}

// awsProviders keeps one Bedrock provider per HTTP client for the
// registry's lifetime, built with the registry's environment: each holds
// the AWS session and credentials cache of that environment, so a
// profile's credential_process runs once per expiry, not per request.
type awsProviders struct {
	mu sync.Mutex
	m  map[*http.Client]*bedrock.Provider
}

// bedrockProvider returns the provider for a Bedrock request, or nil when
// the model's API is another.
func (r *Registry) bedrockProvider(req *ai.Request, client *http.Client) ai.Provider {
	if req.Model.API != ai.APIBedrockConverseStream {
		return nil
	}
	a := &r.aws
	a.mu.Lock()
	defer a.mu.Unlock()
	if p, ok := a.m[client]; ok {
		return p
	}
	if a.m == nil {
		a.m = map[*http.Client]*bedrock.Provider{}
	}
	p := bedrock.NewWithEnv(client, r.getenv)
	a.m[client] = p
	return p
}
