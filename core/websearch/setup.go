package websearch

import (
	"fmt"

	"github.com/gopi-agent/gopi/core/config"
)

// needs says, per provider, what makes it usable.
var needs = map[ID]string{
	Tavily:     config.EnvTavilyAPIKey,
	Perplexity: config.EnvPerplexityAPIKey + " or " + config.EnvPerplexityCookies,
	Brave:      config.EnvBraveAPIKey,
	Jina:       config.EnvJinaAPIKey,
	Kimi:       config.EnvMoonshotSearchAPIKey + " (or " + config.EnvKimiSearchAPIKey + ", " + config.EnvMoonshotAPIKey + ")",
	Anthropic:  config.EnvAnthropicSearchAPIKey + " (or " + config.EnvAnthropicAPIKey + ")",
	Gemini:     "a Google sign-in (gopi login google-gemini-cli)",
	Codex:      config.EnvCodexOAuthToken + " or a ChatGPT sign-in (gopi login openai-codex)",
	Zai:        config.EnvZaiAPIKey,
	Exa:        config.EnvExaAPIKey + ", or turn exa.enabled and exa.enableSearch back on (Exa needs no key)",
	Parallel:   config.EnvParallelAPIKey,
	Kagi:       config.EnvKagiAPIKey,
	Synthetic:  config.EnvSyntheticAPIKey,
	SearXNG:    config.EnvSearXNGEndpoint + " (or the searxng.endpoint setting)",
}

// CheckProvider reports whether provider, named explicitly by a person,
// can be asked: nil for "" and "auto" (the configured choice) and for a
// usable provider, otherwise an error saying what to set. An unknown name
// is an error too.
func (s *Searcher) CheckProvider(provider string) error {
	id := ID(provider)
	switch {
	case provider == "" || provider == "auto" || s.Usable(id):
		return nil
	case !Known(provider):
		return fmt.Errorf("unknown web search provider %q", provider)
	case id == Gemini:
		return fmt.Errorf("%s is not configured: it needs %s", id.Label(), needs[id])
	}
	return fmt.Errorf("%s is not configured: set %s", id.Label(), needs[id])
}
