package websearch

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// Options tune a Searcher.
type Options struct {
	Timeouts Timeouts
	// Now is the clock result ages are measured with; nil is time.Now.
	Now func() time.Time
	// BaseURLs replace providers' API base URLs (tests, proxies). SearXNG
	// always uses its configured endpoint; Anthropic's own base URL
	// setting wins when set.
	BaseURLs map[ID]string
	// Keys finds credentials stored outside the configuration (keys and
	// sign-ins of agent.db, as omp's providers look there too); nil: the
	// configuration's keys only.
	Keys Keys
}

// Keys looks up stored credentials by provider name (the session's model
// registry, core/ai/models.Registry, satisfies it).
type Keys interface {
	KeySource(provider string) string
	APIKeyContext(ctx context.Context, provider string) (key, baseURL, source string, err error)
}

// storedNames are the credential names each provider's key may be stored
// under, as omp looks them up.
var storedNames = map[ID][]string{
	Tavily: {"tavily"}, Kimi: {"moonshot", "kimi-code"}, Anthropic: {"anthropic"}, Codex: {"openai-codex"},
	Zai: {"zai"}, Parallel: {"parallel"}, Kagi: {"kagi"}, Synthetic: {"synthetic"},
	Gemini:     geminiLogins,   // Google sign-ins only
	Perplexity: {"perplexity"}, // a Perplexity sign-in (its web app), as omp
}

// Searcher runs searches over the configured providers. It is safe for
// concurrent use and holds no goroutines.
type Searcher struct {
	keys Keys
	cfg  config.WebSearch
	t    *transport
	now  func() time.Time
	base map[ID]string
	// backoff is the first wait before Gemini asks again, sleep how it
	// waits (tests shorten and record them).
	backoff time.Duration
	sleep   func(context.Context, time.Duration) error
}

// New returns a Searcher for the configuration cfg.
func New(cfg config.WebSearch, opt Options) *Searcher {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	return &Searcher{cfg: cfg, keys: opt.Keys, t: newTransport(opt.Timeouts), now: now, base: opt.BaseURLs, backoff: geminiBackoff, sleep: ctxsleep.Sleep}
}

// provider is one search API gopi speaks.
type provider struct {
	usable func(c *config.WebSearch) bool
	search func(s *Searcher, ctx context.Context, p Params) (*Response, error)
}

var providers = map[ID]provider{
	Tavily: {func(c *config.WebSearch) bool { return c.Tavily != "" }, (*Searcher).tavily},
	Perplexity: {func(c *config.WebSearch) bool {
		return c.Perplexity != "" || strings.TrimSpace(c.PerplexityCookies) != ""
	}, (*Searcher).perplexity},
	Brave:     {func(c *config.WebSearch) bool { return c.Brave != "" }, (*Searcher).brave},
	Jina:      {func(c *config.WebSearch) bool { return c.Jina != "" }, (*Searcher).jina},
	Kimi:      {func(c *config.WebSearch) bool { return c.Kimi != "" }, (*Searcher).kimi},
	Anthropic: {func(c *config.WebSearch) bool { return c.AnthropicKey != "" }, (*Searcher).anthropic},
	Gemini:    {func(*config.WebSearch) bool { return false }, (*Searcher).gemini}, // a stored Google sign-in only
	Codex:     {func(c *config.WebSearch) bool { return c.Codex != "" }, (*Searcher).codex},
	Zai:       {func(c *config.WebSearch) bool { return c.Zai != "" }, (*Searcher).zai},
	Exa:       {func(c *config.WebSearch) bool { return c.Exa != "" || c.ExaSearch }, (*Searcher).exa},
	Parallel:  {func(c *config.WebSearch) bool { return c.Parallel != "" }, (*Searcher).parallel},
	Kagi:      {func(c *config.WebSearch) bool { return c.Kagi != "" }, (*Searcher).kagi},
	Synthetic: {func(c *config.WebSearch) bool { return c.Synthetic != "" }, (*Searcher).synthetic},
	SearXNG:   {func(c *config.WebSearch) bool { return c.SearXNG.Endpoint != "" }, (*Searcher).searxng},
}

// Usable reports whether id is a provider gopi speaks whose key or
// endpoint is configured.
func (s *Searcher) Usable(id ID) bool {
	p, ok := providers[id]
	return ok && (p.usable(&s.cfg) || stored(s.keys, id))
}

// stored reports whether keys holds a credential for id.
func stored(keys Keys, id ID) bool {
	if keys == nil {
		return false
	}
	for _, name := range storedNames[id] {
		if keys.KeySource(name) != "" {
			return true
		}
	}
	return false
}

// key is the key to send to id: configured when set, else the stored
// one (a sign-in refreshed first when it is about to expire).
func (s *Searcher) key(ctx context.Context, id ID, configured string) (string, error) {
	if configured != "" || s.keys == nil {
		return configured, nil
	}
	for _, name := range storedNames[id] {
		if s.keys.KeySource(name) == "" {
			continue
		}
		k, _, _, err := s.keys.APIKeyContext(ctx, name)
		if k != "" {
			return k, nil
		}
		if err != nil {
			return "", &Error{Provider: id, Message: fmt.Sprintf("%s credential stored as %q could not be used: %v", id.Label(), name, err)}
		}
	}
	return "", &Error{Provider: id, Message: id.Label() + " has no key: set its variable or sign in (gopi login)"}
}

// Chain returns the usable providers in the order they are tried:
// preferred first (when usable; "" or "auto" prefers none), then Order.
func (s *Searcher) Chain(preferred string) []ID {
	var chain []ID
	if preferred != "" && preferred != "auto" && s.Usable(ID(preferred)) {
		chain = append(chain, ID(preferred))
	}
	for _, id := range Order {
		if string(id) != preferred && s.Usable(id) {
			chain = append(chain, id)
		}
	}
	return chain
}

// Any reports whether some provider is usable.
func (s *Searcher) Any() bool { return len(s.Chain("")) > 0 }

// ErrNoProvider is the failure of a search with no usable provider.
var ErrNoProvider = errors.New("No web search provider configured. Set one of TAVILY_API_KEY, PERPLEXITY_API_KEY, BRAVE_API_KEY, JINA_API_KEY, MOONSHOT_SEARCH_API_KEY, ANTHROPIC_SEARCH_API_KEY, OPENAI_CODEX_OAUTH_TOKEN, ZAI_API_KEY, EXA_API_KEY, PARALLEL_API_KEY, KAGI_API_KEY, SYNTHETIC_API_KEY or SEARXNG_ENDPOINT, or turn exa.enabled and exa.enableSearch back on (Exa needs no key).")

// yearPattern matches the years omp rewrites in queries.
var yearPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`202\d`)
})

// Search runs p on the provider named by provider ("" or "auto": the
// configured preference) and falls back along the chain when it fails.
// As omp does, years 2020–2029 in the query become the current year. The
// error, when every provider failed, is one line naming them.
func (s *Searcher) Search(ctx context.Context, provider string, p Params) (*Response, error) {
	var chain []ID
	if provider != "" && provider != "auto" && s.Usable(ID(provider)) {
		chain = []ID{ID(provider)}
	} else if provider != "" && provider != "auto" {
		chain = s.Chain("auto")
	} else {
		chain = s.Chain(s.cfg.Preferred)
	}
	if len(chain) == 0 {
		return nil, ErrNoProvider
	}
	p.Query = yearPattern().ReplaceAllString(p.Query, strconv.Itoa(s.now().Year()))
	var last error
	for _, id := range chain {
		r, err := providers[id].search(s, ctx, p)
		if err == nil {
			return r, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
	}
	msg := strings.Join(strings.Fields(describe(last)), " ") // one line, whatever the provider wrote
	if len(chain) > 1 {
		names := make([]string, len(chain))
		for i, id := range chain {
			names[i] = id.Label()
		}
		msg = fmt.Sprintf("All web search providers failed (%s). Last error: %s", strings.Join(names, ", "), msg)
	}
	return nil, errors.New(msg)
}

// describe is the one-line message of a provider failure.
func describe(err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	switch {
	case e.Provider == Anthropic && e.Status == 404:
		return "Anthropic web search returned 404 (model or endpoint not found). Check ANTHROPIC_SEARCH_MODEL and ANTHROPIC_SEARCH_BASE_URL."
	case e.Provider == Zai && (e.Status == 401 || e.Status == 403):
		return e.Message + "; check ZAI_API_KEY."
	case e.Status == 401 || e.Status == 403:
		what := "API key or base URL"
		if e.KeyVar != "" {
			what = e.KeyVar
		}
		return fmt.Sprintf("%s authorization failed (%d). Check %s.", e.Provider.Label(), e.Status, what)
	case e.Status == 429:
		what := "; rate limited, "
		if strings.Contains(strings.ToLower(e.Message), "rate limit") {
			what = "; " // the provider said it already
		}
		if e.RetryAfter > 0 {
			return fmt.Sprintf("%s%sretry after %s.", e.Message, what, e.RetryAfter.Round(time.Second))
		}
		return e.Message + what + "retry later."
	case e.Status >= 500:
		return e.Message + "; the provider failed, retry later."
	}
	return e.Message
}

// clampResults is n clamped to 1..maxN, def when n is 0 or less.
func clampResults(n, def, maxN int) int {
	if n <= 0 {
		return def
	}
	return min(maxN, max(1, n))
}

// firstPositive is the first n > 0, or 0.
func firstPositive(ns ...int) int {
	for _, n := range ns {
		if n > 0 {
			return n
		}
	}
	return 0
}

// baseURL is the base URL of id: the override, else def.
func (s *Searcher) baseURL(id ID, def string) string {
	if b := s.base[id]; b != "" {
		return strings.TrimRight(b, "/")
	}
	return def
}

// sources keeps the first n of ss (n 0: all).
func limitSources(ss []Source, n int) []Source {
	if n > 0 && len(ss) > n {
		return ss[:n]
	}
	return ss
}

// Configured reports whether cfg, or a credential in keys (nil: none),
// makes some provider usable (the web_search tool is offered only then).
func Configured(cfg config.WebSearch, keys Keys) bool {
	for id, p := range providers {
		if p.usable(&cfg) || stored(keys, id) {
			return true
		}
	}
	return false
}

// source is a result with a URL: the title falls back to the URL, the
// age is read from date. ok is false for a result without a URL, which
// every provider skips.
func (s *Searcher) source(title, rawURL, snippet, date string) (src Source, ok bool) {
	if rawURL == "" {
		return Source{}, false
	}
	if title == "" {
		title = rawURL
	}
	return Source{Title: title, URL: rawURL, Snippet: snippet, PublishedDate: date, AgeSeconds: ageOf(date, s.now())}, true
}
