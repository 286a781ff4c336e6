package models

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/openaicompletions"
	"github.com/gopi-agent/gopi/core/config"
)

// Options configures Load. A program with a core/config Config passes
// its AgentDir and Env.Get; the zero value falls back to the process
// environment (without .env files) and the agent directory it names.
type Options struct {
	AgentDir string              // directory with models.yml and auth.json; AgentDir(Getenv) when empty
	Getenv   func(string) string // environment lookup (config.Env.Get); the process environment when nil
	NoFiles  bool                // skip models.yml and auth.json (built-in catalog only)
	// FallbackDirs are searched in order for models.yml when AgentDir has
	// none: lower-priority sources such as omp's ~/.omp/agent.
	FallbackDirs []string
	// Credentials is the credential store (agent.db) asked before
	// auth.json; nil for none.
	Credentials StoredCredentials
}

// Registry is the set of known providers and models with their credentials.
type Registry struct {
	providers   []*ProviderInfo
	byName      map[string]*ProviderInfo
	credentials map[string]Credential
	overrides   map[string]string
	stored      StoredCredentials // agent.db; nil for none
	getenv      func(string) string
	builtins    int          // how many providers are built in (the first ones of providers)
	cloud       googleCloud  // Vertex AI credentials (vertex.go)
	aws         awsProviders // Bedrock providers with their AWS sessions (bedrock.go)
	ConfigPath  string       // models.yml that was loaded ("" if none)

	mu     sync.Mutex  // guards slots and all once the registry is shared
	slots  []slot      // the models in registry order (slots.go)
	all    []*ai.Model // every slot's model, once Models has built them
	probes []*probe    // local discovery (discovery.go), set by discoverOnce

	discover     func()      // starts the probes (Discover); nil when not armed
	discoverOnce sync.Once   // runs discover
	probing      atomic.Bool // set once the probes are started
}

// Load builds the registry: the built-in catalog, then models.yml from the
// agent directory, then stored credentials. A broken file is an error that
// names the file and the problem.
func Load(opts Options) (*Registry, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = config.ProcessEnv().Get
	}
	r := &Registry{byName: map[string]*ProviderInfo{}, credentials: map[string]Credential{}, overrides: map[string]string{}, getenv: getenv, stored: opts.Credentials}
	providers, builtin := builtinProviders()
	for _, p := range providers {
		r.addProvider(p)
	}
	r.addProvider(azureProvider())
	if _, ok := r.byName[BedrockProvider]; !ok {
		r.addProvider(bedrockInfo())
	}
	r.slots = builtin
	r.builtins = len(r.providers)
	if opts.NoFiles {
		return r, nil
	}
	dir := opts.AgentDir
	if dir == "" {
		dir = AgentDir(getenv)
	}
	cfg, path, err := loadFile(dir)
	for _, d := range opts.FallbackDirs {
		if cfg != nil || err != nil {
			break
		}
		cfg, path, err = loadFile(d)
	}
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		r.ConfigPath = path
		if err := r.apply(path, cfg); err != nil {
			return nil, err
		}
	}
	creds, err := loadCredentials(dir)
	if err != nil {
		return nil, err
	}
	r.credentials = creds
	return r, nil
}

func (r *Registry) addProvider(p *ProviderInfo) {
	p.order = len(r.providers)
	r.providers = append(r.providers, p)
	r.byName[p.Name] = p
}

// apply merges models.yml into the registry, providers in name order.
func (r *Registry) apply(path string, cfg *fileConfig) error {
	names := make([]string, 0, len(cfg.Providers))
	for n := range cfg.Providers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		fp := cfg.Providers[name]
		p, builtin := r.byName[name]
		if !builtin {
			if fp.BaseURL == "" || fp.API == "" {
				return &ConfigError{Path: path, Msg: fmt.Sprintf("providers.%s: a new provider needs baseUrl and api (%q is none of the %d built-in providers; 'gopi models' lists them)", name, name, r.builtins)}
			}
			p = &ProviderInfo{Name: name, Title: name}
			r.addProvider(p)
		}
		p.Custom = true
		oldBase, oldAPI := p.BaseURL, p.API
		if fp.API != "" {
			p.API = ai.API(fp.API)
		}
		if fp.BaseURL != "" {
			p.BaseURL = strings.TrimRight(fp.BaseURL, "/")
			p.BaseURLEnv = "" // an explicit URL wins over discovery variables
		}
		if fp.APIKey != "" {
			p.APIKey = fp.APIKey
		}
		if len(fp.Headers) > 0 {
			p.Headers = fp.Headers
		}
		if fp.Auth == "none" {
			p.KeyOptional = true
		}
		// Built-in models that used the provider's URL or API follow the
		// new ones (a provider with several routes keeps the others).
		if p.BaseURL != oldBase || p.API != oldAPI {
			for i := range r.slots {
				s := &r.slots[i]
				if s.provider() != name || (s.baseURL() != oldBase && s.api() != oldAPI) {
					continue
				}
				m := s.model()
				if m.BaseURL == oldBase {
					m.BaseURL = p.BaseURL
				}
				if m.API == oldAPI {
					m.API = p.API
				}
			}
		}
		for _, fm := range fp.Models {
			m := &ai.Model{
				ID: fm.ID, Name: fm.Name, API: p.API, Provider: name, BaseURL: p.BaseURL,
				Reasoning: fm.Reasoning, Input: fm.Input, ContextWindow: fm.ContextWindow, MaxTokens: fm.MaxTokens,
				Cost: fm.Cost, Headers: fm.Headers, Compat: fm.Compat, ContextPromotionTarget: fm.ContextPromotionTarget,
			}
			if m.Compat == nil && len(fp.Compat) > 0 {
				m.Compat = fp.Compat
			}
			if m.Name == "" {
				m.Name = fm.ID
			}
			if fm.API != "" {
				m.API = ai.API(fm.API)
			}
			if fm.BaseURL != "" {
				m.BaseURL = strings.TrimRight(fm.BaseURL, "/")
			}
			if len(m.Input) == 0 {
				m.Input = inText
			}
			if m.ContextWindow == 0 {
				m.ContextWindow = 128000
			}
			if m.MaxTokens == 0 {
				m.MaxTokens = 16384
			}
			r.replaceOrAdd(m)
		}
		for id, o := range fp.ModelOverrides {
			for i := range r.slots {
				if s := &r.slots[i]; s.provider() == name && s.id() == id {
					o.apply(s.model())
				}
			}
		}
	}
	return nil
}

// apply changes the fields an override sets.
func (o modelOverride) apply(m *ai.Model) {
	if o.Name != "" {
		m.Name = o.Name
	}
	if o.Reasoning != nil {
		m.Reasoning = *o.Reasoning
	}
	if len(o.Input) > 0 {
		m.Input = o.Input
	}
	if o.Cost != nil {
		m.Cost = *o.Cost
	}
	if o.ContextWindow > 0 {
		m.ContextWindow = o.ContextWindow
	}
	if o.MaxTokens > 0 {
		m.MaxTokens = o.MaxTokens
	}
	if len(o.Headers) > 0 {
		m.Headers = o.Headers
	}
	if len(o.Compat) > 0 {
		m.Compat = o.Compat
	}
	if o.ContextPromotionTarget != "" {
		m.ContextPromotionTarget = o.ContextPromotionTarget
	}
}

func (r *Registry) replaceOrAdd(m *ai.Model) {
	for i := range r.slots {
		if s := &r.slots[i]; s.provider() == m.Provider && s.id() == m.ID {
			s.m = m
			return
		}
	}
	r.slots = append(r.slots, slot{m: m})
}

// Providers lists the providers, built-ins first.
func (r *Registry) Providers() []*ProviderInfo { return r.providers }

// Provider returns a provider by name.
func (r *Registry) Provider(name string) (*ProviderInfo, bool) {
	p, ok := r.byName[name]
	return p, ok
}

// SetAPIKey sets a runtime key for a provider, overriding every other source.
func (r *Registry) SetAPIKey(provider, key string) { r.overrides[provider] = key }

// APIKey resolves the key for a provider and says where it came from
// ("--api-key", "agent.db", "omp agent.db", "auth.json", "models.yml",
// "env NAME"). It returns "" and "" when no key is available. A stored
// sign-in about to expire is refreshed first (see APIKeyContext).
func (r *Registry) APIKey(provider string) (key, source string) {
	key, _, source, _ = r.APIKeyContext(context.Background(), provider)
	return key, source
}

// APIKeyContext resolves the key for a provider in the order runtime
// override, stored credentials (agent.db: gopi's, then omp's), auth.json,
// models.yml, environment. It also returns the API root a stored
// credential names ("" for the model's own). A stored credential that
// cannot be used (a refresh the provider refused, an unreadable agent.db)
// is the error only when no later source has a key either.
func (r *Registry) APIKeyContext(ctx context.Context, provider string) (key, baseURL, source string, err error) {
	return r.resolveKey(ctx, provider, "")
}

// resolveKey is APIKeyContext for a request of session (see
// StoredCredentials.Resolve).
func (r *Registry) resolveKey(ctx context.Context, provider, session string) (key, baseURL, source string, err error) {
	if k := r.overrides[provider]; k != "" {
		return k, "", "--api-key", nil
	}
	if r.stored != nil {
		k, base, src, serr := r.stored.Resolve(ctx, provider, session)
		if k != "" {
			return k, base, src, nil
		}
		err = serr
	}
	if k, src := r.unstoredKey(provider); k != "" {
		return k, "", src, nil
	}
	return "", "", "", err
}

// KeySource names where provider's key would come from without resolving
// it (no refresh, no network): "--api-key", a stored source, "auth.json",
// "models.yml", "env NAME"; "" when there is none.
func (r *Registry) KeySource(provider string) string {
	if r.overrides[provider] != "" {
		return "--api-key"
	}
	if r.stored != nil {
		if src := r.stored.Stored(provider); src != "" {
			return src
		}
	}
	_, src := r.unstoredKey(provider)
	return src
}

// unstoredKey is the key from auth.json, models.yml or the environment.
func (r *Registry) unstoredKey(provider string) (key, source string) {
	if c, ok := r.credentials[provider]; ok {
		if k := c.Secret(time.Now()); k != "" {
			return k, CredentialsFile
		}
	}
	p, ok := r.byName[provider]
	if !ok {
		return "", ""
	}
	if p.APIKey != "" {
		if isEnvName(p.APIKey) {
			if v := strings.TrimSpace(r.getenv(p.APIKey)); v != "" {
				return v, "env " + p.APIKey
			}
		} else {
			return p.APIKey, ModelsFile
		}
	}
	for _, name := range p.KeyEnv {
		if v := strings.TrimSpace(r.getenv(name)); v != "" {
			return v, "env " + name
		}
	}
	return r.ambientKey(p)
}

// isEnvName reports whether s looks like an environment variable name
// (upper-case letters, digits and underscores) rather than a literal key.
func isEnvName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// HasAuth reports whether a request to the model's provider can be made:
// a key is available (a stored sign-in counts, even one that must be
// refreshed first), the provider's own client finds credentials in the
// environment, or the provider works without one.
func (r *Registry) HasAuth(m *ai.Model) bool { return r.providerHasAuth(m.Provider) }

// AuthCheck returns HasAuth answering once per provider: for one walk over
// many models (the catalogue has thousands; each answer may look at the
// credential files), by one goroutine. A login made during the walk may
// go unseen until the next one.
func (r *Registry) AuthCheck() func(*ai.Model) bool {
	rk := r.ranker()
	return func(m *ai.Model) bool { return rk.hasAuth(m.Provider) }
}

func (r *Registry) providerHasAuth(provider string) bool {
	if r.KeySource(provider) != "" || r.ambientAuth(provider) != "" {
		return true
	}
	p, ok := r.byName[provider]
	return ok && p.KeyOptional
}

// ambientAuth returns where a provider's own client would find
// credentials in the environment: the AWS chain for Bedrock
// (awsAuthSource), or the variables the catalogue names for the provider
// (ProviderInfo.Ambient, "env A+B"); "" when neither applies.
func (r *Registry) ambientAuth(provider string) string {
	if s := r.awsAuthSource(provider); s != "" {
		return s
	}
	if p, ok := r.byName[provider]; ok {
		return ambientSource(p, r.getenv)
	}
	return ""
}

// CredentialSource says where a provider's credentials would come from:
// APIKey's source ("--api-key", "auth.json", "models.yml", "env NAME", or
// what a credential store reports), else "env A+B" when the provider's own
// client finds credentials in the environment (AWS, Google ADC), else
// "none" for a provider that needs no key, else "".
func (r *Registry) CredentialSource(provider string) string {
	if src := r.KeySource(provider); src != "" {
		return src
	}
	p, ok := r.byName[provider]
	if !ok {
		return ""
	}
	if s := r.ambientAuth(provider); s != "" {
		return s
	}
	if p.KeyOptional {
		return "none"
	}
	return ""
}

// BaseURL returns the model's base URL after the provider's environment
// override (OLLAMA_BASE_URL and friends).
func (r *Registry) BaseURL(m *ai.Model) string {
	p, ok := r.byName[m.Provider]
	if !ok || p.BaseURLEnv == "" || m.BaseURL != p.BaseURL {
		return m.BaseURL
	}
	if preset, ok := openaicompletions.PresetByName(p.Name); ok {
		return preset.ResolvedBaseURL(r.getenv)
	}
	if v := strings.TrimSpace(r.getenv(p.BaseURLEnv)); v != "" {
		return v
	}
	return m.BaseURL
}

// Prepare fills what the registry knows into a request for its model: the
// API key (unless set; a stored sign-in is refreshed first when it is
// about to expire), the base URL its credential or the environment names,
// the provider's headers and the cache retention from PI_CACHE_RETENTION.
// It returns an error when the provider needs a key and none is
// available, or when a stored one cannot be used.
func (r *Registry) Prepare(ctx context.Context, req *ai.Request) error {
	m := req.Model
	if m == nil {
		return fmt.Errorf("no model selected")
	}
	p := r.byName[m.Provider]
	foundry := r.applyFoundry(req)
	if req.APIKey == "" && !foundry {
		key, base, _, err := r.resolveKey(ctx, m.Provider, req.SessionID)
		if err != nil {
			return err
		}
		req.APIKey = key
		if req.BaseURL == "" && base != "" {
			req.BaseURL = strings.TrimRight(base, "/")
		}
	}
	r.applyAzure(req)
	if err := r.usable(m); err != nil {
		return err
	}
	if req.APIKey == "" && !foundry && (p == nil || !p.KeyOptional) && r.ambientAuth(m.Provider) == "" {
		return fmt.Errorf("no API key for provider %q: %s", m.Provider, r.keyHint(m.Provider))
	}
	if req.BaseURL == "" {
		if u := r.BaseURL(m); u != m.BaseURL {
			req.BaseURL = u
		}
	}
	if p != nil && len(p.Headers) > 0 {
		h := map[string]string{}
		for k, v := range p.Headers {
			h[k] = v
		}
		for k, v := range req.Headers {
			h[k] = v
		}
		req.Headers = h
	}
	copilotHeaders(req)
	if req.Cache == "" && r.getenv("PI_CACHE_RETENTION") == "long" {
		req.Cache = ai.CacheLong
	}
	req.Thinking = ClampThinking(m, req.Thinking)
	return nil
}

// keyHint tells the user how to provide a key for a provider.
func (r *Registry) keyHint(provider string) string {
	p, ok := r.byName[provider]
	if !ok {
		return "unknown provider; define it in " + ModelsFile
	}
	if p.API == ai.APIBedrockConverseStream {
		return awsKeyHint
	}
	var ways []string
	if len(p.KeyEnv) > 0 {
		ways = append(ways, "set "+strings.Join(p.KeyEnv, " or "))
	}
	for _, alt := range p.Ambient {
		ways = append(ways, "set "+strings.ReplaceAll(alt, "+", " and "))
	}
	if p.APIKey != "" && isEnvName(p.APIKey) {
		ways = append(ways, "set "+p.APIKey+" (from "+ModelsFile+")")
	}
	ways = append(ways, "run `gopi login "+provider+"`", "or pass --api-key")
	if h := ambientHint(p); h != "" {
		ways = append(ways, h)
	}
	return strings.Join(ways, ", ")
}

// Stream prepares req and streams it with the provider for its model's API.
// A preparation error becomes a stream with a single "error" event.
func (r *Registry) Stream(ctx context.Context, req *ai.Request, client *http.Client) *ai.Stream {
	if err := r.Prepare(ctx, req); err != nil {
		em, s := ai.NewEmitter(req.Model)
		em.Fail(nil, req.Model, err)
		return s
	}
	if p := r.bedrockProvider(req, client); p != nil {
		return p.Stream(ctx, req)
	}
	if p, err := r.cloudProvider(req, client); p != nil || err != nil {
		if err != nil {
			em, s := ai.NewEmitter(req.Model)
			em.Fail(nil, req.Model, err)
			return s
		}
		return p.Stream(ctx, req)
	}
	return ai.StreamRequest(ctx, req, client)
}

// NewProvider returns the streaming provider for a model's API.
func NewProvider(m *ai.Model, client *http.Client) (ai.Provider, error) {
	return ai.NewProvider(m.API, client)
}
