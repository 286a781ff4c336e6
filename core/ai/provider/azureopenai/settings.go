package azureopenai

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// Model compat keys the provider reads; the model registry sets them from
// the environment, models.yml may set them per model.
const (
	CompatDeployment = "azureDeployment" // deployment name; the model id when absent
	CompatAPIVersion = "azureApiVersion" // api-version query value; DefaultAPIVersion when absent
)

// DefaultAPIVersion is the api-version sent when none is configured: the
// version of Azure's v1 API surface (/openai/v1).
const DefaultAPIVersion = "v1"

// ResourceBaseURL is the API root of a resource named name.
func ResourceBaseURL(name string) string {
	return "https://" + strings.TrimSpace(name) + ".openai.azure.com/openai/v1"
}

// Deployment returns the deployment a request for m addresses.
func Deployment(m *ai.Model) string {
	if d, ok := m.Compat[CompatDeployment].(string); ok && strings.TrimSpace(d) != "" {
		return strings.TrimSpace(d)
	}
	return m.ID
}

// APIVersion returns the api-version of requests for m.
func APIVersion(m *ai.Model) string {
	if v, ok := m.Compat[CompatAPIVersion].(string); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v)
	}
	return DefaultAPIVersion
}

// ParseDeploymentMap parses "model=deployment" pairs separated by commas
// (AZURE_OPENAI_DEPLOYMENT_NAME_MAP). Blanks around names are ignored, as
// are entries without a model or a deployment; a later pair for the same
// model wins.
func ParseDeploymentMap(s string) map[string]string {
	out := map[string]string{}
	for _, entry := range strings.Split(s, ",") {
		model, deployment, ok := strings.Cut(entry, "=")
		model, deployment = strings.TrimSpace(model), strings.TrimSpace(deployment)
		if ok && model != "" && deployment != "" {
			out[model] = deployment
		}
	}
	return out
}

// IsEntraToken reports whether a credential is a Microsoft Entra ID access
// token (a JWT: three dot-separated segments, the first a base64 JSON
// header) rather than an API key, which is hexadecimal or alphanumeric.
func IsEntraToken(cred string) bool {
	parts := strings.Split(cred, ".")
	return len(parts) == 3 && strings.HasPrefix(parts[0], "eyJ") && parts[1] != "" && parts[2] != ""
}
