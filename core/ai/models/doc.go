// Package models is the model registry: the built-in catalog of providers
// and models (omp 14.9.9's, generated into pointer-free static data:
// catalog.go), user-defined providers and models from models.yml in the
// agent directory, models found on local servers (discovery.go), model
// lookup by exact or fuzzy name (lookup.go), thinking-level clamping,
// API-key resolution and construction of the streaming provider for a model.
//
// Key resolution order for a provider: a runtime override (SetAPIKey, the
// --api-key flag), then the credential store given as Options.Credentials
// (agent.db, gopi's then omp's, with OAuth refresh: core/auth), then
// <agent dir>/auth.json, then the provider's key in models.yml (a literal or
// an environment variable name), then the provider's environment variables
// in order (for Anthropic ANTHROPIC_OAUTH_TOKEN before ANTHROPIC_API_KEY). With
// CLAUDE_CODE_USE_FOUNDRY set, anthropic requests use FOUNDRY_BASE_URL,
// ANTHROPIC_FOUNDRY_API_KEY (as a bearer token) and ANTHROPIC_CUSTOM_HEADERS
// (foundry.go). Azure OpenAI requests take their address, deployment and
// api-version from the AZURE_OPENAI_* variables (azure.go). Providers whose
// API is google-vertex also take GOOGLE_CLOUD_API_KEY, or count as signed in
// when application default credentials, GOOGLE_CLOUD_PROJECT (or
// GCLOUD_PROJECT) and GOOGLE_CLOUD_LOCATION are there
// (GOOGLE_VERTEX_BASE_URL replaces the host); Vertex AI and Cloud Code
// Assist (google-gemini-cli) providers are built with their settings from
// the environment (vertex.go).
//
// Importing this package registers every built-in provider implementation
// with core/ai (the blank imports of providers.go).
package models
