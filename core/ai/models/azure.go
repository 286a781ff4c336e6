package models

import (
	"maps"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/azureopenai"
)

// Azure OpenAI has no built-in models: a resource serves the deployments
// its owner created. They are declared in models.yml under the
// azure-openai-responses provider (or any provider with
// api: azure-openai-responses), each with the model's facts and, when the
// deployment is named differently, compat: {azureDeployment: NAME}:
//
//	providers:
//	  azure-openai-responses:
//	    models:
//	      - id: gpt-5.1
//	        reasoning: true
//	        input: [text, image]
//	        contextWindow: 400000
//	        maxTokens: 128000
//	        compat: {azureDeployment: team-gpt51}
//
// The environment (spec/environment-variables.md) configures every model
// of that API at request time (applyAzure).
const (
	azureProviderName = "azure-openai-responses"           // omp's provider key for the API
	azureKeyEnv       = "AZURE_OPENAI_API_KEY"             // key, or an Entra ID token
	azureBaseURLEnv   = "AZURE_OPENAI_BASE_URL"            // API root, wins over the resource name
	azureResourceEnv  = "AZURE_OPENAI_RESOURCE_NAME"       // https://<name>.openai.azure.com/openai/v1
	azureVersionEnv   = "AZURE_OPENAI_API_VERSION"         // api-version; "v1" when unset
	azureMapEnv       = "AZURE_OPENAI_DEPLOYMENT_NAME_MAP" // model=deployment,…
)

// azureProvider is the built-in Azure OpenAI provider: no default address
// (each resource has its own) and no models until models.yml declares
// them.
func azureProvider() *ProviderInfo {
	return &ProviderInfo{Name: azureProviderName, Title: "Azure OpenAI", API: ai.APIAzureOpenAIResponses,
		BaseURLEnv: azureBaseURLEnv, KeyEnv: []string{azureKeyEnv}}
}

// applyAzure fills an Azure OpenAI request from the environment: the base
// URL (AZURE_OPENAI_BASE_URL, else AZURE_OPENAI_RESOURCE_NAME, else the
// model's), the deployment (AZURE_OPENAI_DEPLOYMENT_NAME_MAP, over the
// model's compat) and api-version (AZURE_OPENAI_API_VERSION) into a copy
// of the model's compat, and AZURE_OPENAI_API_KEY when the provider found
// no key of its own (a provider of another name, as in omp).
func (r *Registry) applyAzure(req *ai.Request) {
	m := req.Model
	if m.API != ai.APIAzureOpenAIResponses {
		return
	}
	if req.BaseURL == "" {
		if u := strings.TrimSpace(r.getenv(azureBaseURLEnv)); u != "" {
			req.BaseURL = strings.TrimRight(u, "/")
		} else if name := strings.TrimSpace(r.getenv(azureResourceEnv)); name != "" {
			req.BaseURL = azureopenai.ResourceBaseURL(name)
		}
	}
	compat := map[string]any{}
	if d, ok := azureopenai.ParseDeploymentMap(r.getenv(azureMapEnv))[m.ID]; ok {
		compat[azureopenai.CompatDeployment] = d
	}
	if v := strings.TrimSpace(r.getenv(azureVersionEnv)); v != "" {
		compat[azureopenai.CompatAPIVersion] = v
	}
	if len(compat) > 0 {
		c := *m
		c.Compat = maps.Clone(m.Compat)
		if c.Compat == nil {
			c.Compat = map[string]any{}
		}
		maps.Copy(c.Compat, compat)
		req.Model = &c
	}
	if req.APIKey == "" {
		req.APIKey = strings.TrimSpace(r.getenv(azureKeyEnv))
	}
}
