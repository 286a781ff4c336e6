package config

import "testing"

// The search keys come from the environment; searxng.* settings win over
// SEARXNG_* variables; the Anthropic search key follows omp's chain.
func TestWebSearch(t *testing.T) {
	f := newFixture(t, "BRAVE_API_KEY=b", "TAVILY_API_KEY=t", "ANTHROPIC_API_KEY=generic", "ANTHROPIC_BASE_URL=http://proxy",
		"SEARXNG_ENDPOINT=http://env", "SEARXNG_TOKEN=envtok")
	f.write("home/.gopi/agent/config.yml", "providers:\n  webSearch: brave\nsearxng:\n  endpoint: http://setting\n")
	w := f.load().Web().Search
	if !w.Enabled || w.Preferred != "brave" || w.Brave != "b" || w.Tavily != "t" || w.Exa != "" {
		t.Fatalf("%+v", w)
	}
	if w.AnthropicKey != "generic" || w.AnthropicKeyVar != EnvAnthropicAPIKey || w.AnthropicBaseURL != "http://proxy" {
		t.Fatalf("anthropic %+v", w)
	}
	if w.SearXNG.Endpoint != "http://setting" || w.SearXNG.Token != "envtok" || w.SearXNG.BasicSet {
		t.Fatalf("searxng %+v", w.SearXNG)
	}
	w = newFixture(t, "KIMI_SEARCH_API_KEY=k2", "MOONSHOT_API_KEY=k3", "KIMI_SEARCH_BASE_URL=http://kimi/s", "SYNTHETIC_API_KEY=syn").load().Web().Search
	if w.Kimi != "k2" || w.KimiKeyVar != EnvKimiSearchAPIKey || w.KimiURL != "http://kimi/s" || w.Synthetic != "syn" {
		t.Fatalf("kimi %+v", w)
	}
	w = newFixture(t, "ANTHROPIC_SEARCH_API_KEY=s", "ANTHROPIC_API_KEY=generic", "ANTHROPIC_BASE_URL=http://proxy").load().Web().Search
	if w.AnthropicKey != "s" || w.AnthropicKeyVar != EnvAnthropicSearchAPIKey || w.AnthropicBaseURL != "" {
		t.Fatalf("search key %+v", w)
	}
}

// Exa is asked without a key unless exa.enabled or exa.enableSearch is
// off, which also drops its key; Perplexity's cookies and the Google
// client versions come from the environment.
func TestWebSearchExaAndSignIns(t *testing.T) {
	w := newFixture(t, "PERPLEXITY_COOKIES=s=1", "PI_AI_GEMINI_CLI_VERSION= 0.40.0 ").load().Web().Search
	if !w.ExaSearch || w.PerplexityCookies != "s=1" || w.GeminiCLIVersion != "0.40.0" || w.AntigravityVersion != "" {
		t.Fatalf("%+v", w)
	}
	for _, setting := range []string{"exa:\n  enabled: false\n", "exa:\n  enableSearch: false\n"} {
		f := newFixture(t, "EXA_API_KEY=e")
		f.write("home/.gopi/agent/config.yml", setting)
		if w := f.load().Web().Search; w.ExaSearch || w.Exa != "" {
			t.Errorf("%q: %+v", setting, w)
		}
	}
}

// An explicit PUPPETEER_EXECUTABLE_PATH is used as given, even when it is
// wrong (the browser tool then says so), never replaced by the system's.
func TestBrowserExecutableFromEnvironment(t *testing.T) {
	c := &Config{Env: EnvFromMap(map[string]string{EnvBrowserExecutable: "/nonexistent", "PATH": "/usr/bin:/bin"})}
	if b := c.browser(); b.Exec != "/nonexistent" || b.ExecEnv != EnvBrowserExecutable {
		t.Errorf("browser %+v", b)
	}
}
