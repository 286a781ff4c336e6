package config

import "strings"

// Environment variables of the web search providers (the web_search tool
// and gopi search).
const (
	EnvExaAPIKey              = "EXA_API_KEY"               // Exa search API key
	EnvBraveAPIKey            = "BRAVE_API_KEY"             // Brave Search API subscription token
	EnvPerplexityAPIKey       = "PERPLEXITY_API_KEY"        // Perplexity API key (sonar models)
	EnvPerplexityCookies      = "PERPLEXITY_COOKIES"        // Perplexity web-session cookies (its web app's ask endpoint, before the API key)
	EnvTavilyAPIKey           = "TAVILY_API_KEY"            // Tavily search API key
	EnvKagiAPIKey             = "KAGI_API_KEY"              // Kagi Search API key
	EnvJinaAPIKey             = "JINA_API_KEY"              // Jina Reader search key
	EnvParallelAPIKey         = "PARALLEL_API_KEY"          // Parallel search API key
	EnvSearXNGEndpoint        = "SEARXNG_ENDPOINT"          // SearXNG instance base URL
	EnvSearXNGToken           = "SEARXNG_TOKEN"             // SearXNG bearer token
	EnvSearXNGBasicUsername   = "SEARXNG_BASIC_USERNAME"    // SearXNG HTTP Basic user
	EnvSearXNGBasicPassword   = "SEARXNG_BASIC_PASSWORD"    // SearXNG HTTP Basic password
	EnvAnthropicSearchAPIKey  = "ANTHROPIC_SEARCH_API_KEY"  // key for Anthropic's server-side web search
	EnvAnthropicSearchBaseURL = "ANTHROPIC_SEARCH_BASE_URL" // base URL for it (default https://api.anthropic.com)
	EnvAnthropicSearchModel   = "ANTHROPIC_SEARCH_MODEL"    // model for it (default claude-haiku-4-5)
	EnvAnthropicAPIKey        = "ANTHROPIC_API_KEY"         // generic Anthropic key, the search's last fallback
	EnvAnthropicOAuthToken    = "ANTHROPIC_OAUTH_TOKEN"     // generic Anthropic OAuth token, before ANTHROPIC_API_KEY
	EnvAnthropicBaseURL       = "ANTHROPIC_BASE_URL"        // base URL with the generic key
	EnvMoonshotSearchAPIKey   = "MOONSHOT_SEARCH_API_KEY"   // Kimi (Moonshot) search key
	EnvKimiSearchAPIKey       = "KIMI_SEARCH_API_KEY"       // Kimi search key, second choice
	EnvMoonshotAPIKey         = "MOONSHOT_API_KEY"          // Moonshot's model key, Kimi search's last choice
	EnvMoonshotSearchBaseURL  = "MOONSHOT_SEARCH_BASE_URL"  // Kimi search endpoint (the whole URL)
	EnvKimiSearchBaseURL      = "KIMI_SEARCH_BASE_URL"      // Kimi search endpoint, second choice
	EnvSyntheticAPIKey        = "SYNTHETIC_API_KEY"         // Synthetic search key
	EnvZaiAPIKey              = "ZAI_API_KEY"               // Z.AI key (its web search MCP server)
	EnvCodexOAuthToken        = "OPENAI_CODEX_OAUTH_TOKEN"  // a ChatGPT sign-in's access token, for Codex web search
	EnvCodexWebSearchModel    = "PI_CODEX_WEB_SEARCH_MODEL" // the Codex web search model
	EnvGeminiCLIVersion       = "PI_AI_GEMINI_CLI_VERSION"  // Gemini CLI version Gemini grounding claims
	EnvAntigravityVersion     = "PI_AI_ANTIGRAVITY_VERSION" // Antigravity version Gemini grounding claims
)

// WebSearch is the configuration of the web search providers: the
// preferred provider, each provider's credentials, and SearXNG's endpoint
// and options. Settings win over environment variables where both exist
// (searxng.*), as in omp.
type WebSearch struct {
	Enabled   bool   // web_search.enabled: offer the web_search tool
	Preferred string // providers.webSearch: "auto" or a provider id

	Exa, Brave, Tavily, Kagi, Jina, Parallel string // API keys; "" is unset
	// ExaSearch: exa.enabled and exa.enableSearch are on (the defaults),
	// so Exa is asked even without EXA_API_KEY, through its public MCP
	// server, as omp does. With either off, Exa is not asked at all (Exa
	// is "" then too).
	ExaSearch         bool
	Perplexity        string // PERPLEXITY_API_KEY
	PerplexityCookies string // PERPLEXITY_COOKIES (not supported; named in errors)

	// Anthropic web search: the key, base URL and model, after omp's
	// chain (ANTHROPIC_SEARCH_API_KEY, then ANTHROPIC_OAUTH_TOKEN or
	// ANTHROPIC_API_KEY with ANTHROPIC_BASE_URL).
	AnthropicKey, AnthropicBaseURL, AnthropicModel string
	AnthropicKeyVar                                string // the variable AnthropicKey came from, for error messages

	// Kimi (Moonshot) search: the key, the variable it came from and the
	// endpoint ("" is https://api.kimi.com/coding/v1/search).
	Kimi, KimiKeyVar, KimiURL string
	Synthetic                 string // SYNTHETIC_API_KEY
	Zai                       string // ZAI_API_KEY
	Codex, CodexModel         string // OPENAI_CODEX_OAUTH_TOKEN, PI_CODEX_WEB_SEARCH_MODEL
	// GeminiCLIVersion and AntigravityVersion are the client versions
	// Gemini grounding (a Google sign-in) claims; "" is the default.
	GeminiCLIVersion, AntigravityVersion string

	SearXNG SearXNG // searxng.* settings, SEARXNG_* variables as fallbacks
}

// SearXNG is the configuration of a SearXNG instance.
type SearXNG struct {
	Endpoint      string // base URL; "" leaves the provider unavailable
	Token         string // bearer token
	BasicUsername string // HTTP Basic user (with BasicPassword; wins over Token)
	BasicPassword string
	BasicSet      bool   // a Basic user or password was given
	Categories    string // searxng.categories
	Language      string // searxng.language
}

// webSearch returns the web search configuration.
func (c *Config) webSearch() WebSearch {
	env := c.Env.Get
	w := WebSearch{
		Enabled:           c.Settings.Bool("web_search.enabled"),
		Preferred:         c.Settings.String("providers.webSearch"),
		Exa:               env(EnvExaAPIKey),
		Brave:             env(EnvBraveAPIKey),
		Tavily:            env(EnvTavilyAPIKey),
		Kagi:              env(EnvKagiAPIKey),
		Jina:              env(EnvJinaAPIKey),
		Parallel:          env(EnvParallelAPIKey),
		Perplexity:        env(EnvPerplexityAPIKey),
		PerplexityCookies: env(EnvPerplexityCookies),
		AnthropicModel:    env(EnvAnthropicSearchModel),
	}
	switch {
	case env(EnvAnthropicSearchAPIKey) != "":
		w.AnthropicKey, w.AnthropicKeyVar = env(EnvAnthropicSearchAPIKey), EnvAnthropicSearchAPIKey
		w.AnthropicBaseURL = env(EnvAnthropicSearchBaseURL)
	case env(EnvAnthropicOAuthToken) != "":
		w.AnthropicKey, w.AnthropicKeyVar = env(EnvAnthropicOAuthToken), EnvAnthropicOAuthToken
		w.AnthropicBaseURL = env(EnvAnthropicBaseURL)
	case env(EnvAnthropicAPIKey) != "":
		w.AnthropicKey, w.AnthropicKeyVar = env(EnvAnthropicAPIKey), EnvAnthropicAPIKey
		w.AnthropicBaseURL = env(EnvAnthropicBaseURL)
	}
	for _, k := range []string{EnvMoonshotSearchAPIKey, EnvKimiSearchAPIKey, EnvMoonshotAPIKey} {
		if v := strings.TrimSpace(env(k)); v != "" {
			w.Kimi, w.KimiKeyVar = v, k
			break
		}
	}
	for _, k := range []string{EnvMoonshotSearchBaseURL, EnvKimiSearchBaseURL} {
		if v := strings.TrimSpace(env(k)); v != "" {
			w.KimiURL = v
			break
		}
	}
	w.ExaSearch = c.Settings.Bool("exa.enabled") && c.Settings.Bool("exa.enableSearch")
	if !w.ExaSearch {
		w.Exa = ""
	}
	w.Synthetic = env(EnvSyntheticAPIKey)
	w.Zai = env(EnvZaiAPIKey)
	w.GeminiCLIVersion, w.AntigravityVersion = strings.TrimSpace(env(EnvGeminiCLIVersion)), strings.TrimSpace(env(EnvAntigravityVersion))
	w.Codex, w.CodexModel = strings.TrimSpace(env(EnvCodexOAuthToken)), strings.TrimSpace(env(EnvCodexWebSearchModel))
	setting := func(key, envName string) (string, bool) {
		if c.Settings.IsSet(key) {
			return c.Settings.String(key), true
		}
		v, ok := c.Env.Lookup(envName)
		return v, ok
	}
	ep, _ := setting("searxng.endpoint", EnvSearXNGEndpoint)
	tok, _ := setting("searxng.token", EnvSearXNGToken)
	user, userSet := setting("searxng.basicUsername", EnvSearXNGBasicUsername)
	pass, passSet := setting("searxng.basicPassword", EnvSearXNGBasicPassword)
	w.SearXNG = SearXNG{Endpoint: ep, Token: tok, BasicUsername: user, BasicPassword: pass, BasicSet: userSet || passSet,
		Categories: c.Settings.String("searxng.categories"), Language: c.Settings.String("searxng.language")}
	return w
}
