// Package models is the model registry: the built-in catalog of providers
// and models (omp 14.9.9's, generated into pointer-free static data:
// catalog.go), user-defined providers and models from models.yml in the
// agent directory, models found on local servers (discovery.go), model
// lookup by exact or fuzzy name (lookup.go), thinking-level clamping,
// API-key resolution and construction of the streaming provider for a model.
//
// Key resolution order for a provider: a runtime override (SetAPIKey, the
// --api-key flag), then stored credentials (<agent dir>/auth.json), then the
// provider's key in models.yml (a literal or an environment variable name),
// then the provider's environment variables in order (for Anthropic
// ANTHROPIC_OAUTH_TOKEN before ANTHROPIC_API_KEY). With
// CLAUDE_CODE_USE_FOUNDRY set, anthropic requests use FOUNDRY_BASE_URL,
// ANTHROPIC_FOUNDRY_API_KEY (as a bearer token) and ANTHROPIC_CUSTOM_HEADERS
// (foundry.go).
//
// Importing this package registers every built-in provider implementation
// with core/ai (anthropic, openai-completions, openai-responses, google).
package models
