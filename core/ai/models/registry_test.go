package models

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/golden"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// withConfig loads a registry from an agent dir holding the given
// models.yml (and auth.json when auth is not empty).
func withConfig(t *testing.T, yml, auth string, vars map[string]string) (*Registry, error) {
	t.Helper()
	dir := t.TempDir()
	if yml != "" {
		if err := os.WriteFile(filepath.Join(dir, ModelsFile), []byte(yml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if auth != "" {
		if err := os.WriteFile(filepath.Join(dir, CredentialsFile), []byte(auth), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Load(Options{AgentDir: dir, Getenv: env(vars)})
}

func TestCatalogIsConsistent(t *testing.T) {
	r, err := Load(Options{NoFiles: true, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	// APIs of omp's catalogue that gopi does not implement: their models
	// are listed and refused when chosen.
	unimplemented := map[ai.API]int{}
	for _, m := range r.Models() {
		key := m.Provider + "/" + m.ID
		if seen[key] {
			t.Errorf("duplicate catalog entry %s", key)
		}
		seen[key] = true
		if m.Name == "" || m.BaseURL == "" || m.API == "" || m.ContextWindow <= 0 || m.MaxTokens <= 0 || len(m.Input) == 0 {
			t.Errorf("incomplete catalog entry %+v", m)
		}
		if _, known := r.Provider(m.Provider); !known {
			t.Errorf("%s: provider not in the registry", key)
		}
		if !ai.HasAPI(m.API) {
			unimplemented[m.API]++
		}
	}
	if n := len(r.Models()); n != len(catalogEntries)+len(legacyModels) {
		t.Errorf("registry has %d models, the catalogue %d and %d of gopi's former ones", n, len(catalogEntries), len(legacyModels))
	}
	for _, m := range legacyModels {
		for i := range catalogEntries {
			if c := catalogModel(i); c.Provider == m.Provider && c.ID == m.ID {
				t.Errorf("%s/%s is in omp's catalogue now: drop it from legacyModels", m.Provider, m.ID)
			}
		}
	}
	// omp 14.9.9: 44 providers, 2,574 models; gopi adds the four local
	// servers, whose models are discovered, and Azure OpenAI, whose models
	// are the user's deployments (azure.go).
	if len(catalogProviders) != 44 || len(catalogEntries) != 2574 || len(r.Providers()) != 49 {
		t.Errorf("catalogue: %d providers, %d models; registry: %d providers", len(catalogProviders), len(catalogEntries), len(r.Providers()))
	}
	for api := range unimplemented {
		switch api {
		case "cursor-agent", "ollama-chat", "openai-codex-responses", "bedrock-converse-stream", "google-vertex", "google-gemini-cli":
		default:
			t.Errorf("API %s of the catalogue is neither implemented nor known to be missing", api)
		}
	}
	for _, p := range []string{"anthropic", "openai", "google", "xai", "groq", "deepseek", "mistral", "openrouter", "together", "fireworks", "cerebras"} {
		found := false
		for _, m := range r.Models() {
			found = found || m.Provider == p
		}
		if !found {
			t.Errorf("no models for provider %s", p)
		}
	}
}

// TestProviderFacts checks the hand-written provider table against the
// generated catalogue: every catalogue provider has facts, and every
// default model exists.
func TestProviderFacts(t *testing.T) {
	facts := map[string]bool{}
	for _, f := range providerFacts {
		if facts[f.Name] {
			t.Errorf("%s listed twice", f.Name)
		}
		facts[f.Name] = true
	}
	for _, c := range catalogProviders {
		if !facts[c.name] {
			t.Errorf("catalogue provider %s has no entry in providerFacts", c.name)
		}
	}
	r, err := Load(Options{NoFiles: true, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Providers() {
		if p.Title == "" || p.API == "" || p.BaseURL == "" && p.BaseURLEnv == "" {
			t.Errorf("%s: incomplete %+v", p.Name, p)
		}
		if p.DefaultModel == "" {
			continue
		}
		if _, local := localServers[p.Name]; local {
			continue // discovered
		}
		if p.Name == "cursor" || p.Name == "vercel-ai-gateway" {
			continue // omp's default names a model its own catalogue lacks (found by its live discovery)
		}
		if _, err := r.Find(p.Name + "/" + p.DefaultModel); err != nil && !strings.Contains(err.Error(), "does not implement") {
			t.Errorf("%s: default model: %v", p.Name, err)
		}
	}
}

func TestLoadGoodConfig(t *testing.T) {
	data, err := os.ReadFile("testdata/config/good.yml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := withConfig(t, string(data), "", map[string]string{"MY_PROXY_KEY": "pk"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Find("my-proxy/qwen3-coder")
	if err != nil {
		t.Fatal(err)
	}
	if m.API != ai.APIOpenAICompletions || m.BaseURL != "http://localhost:4000/v1" || m.ContextWindow != 131072 || m.Cost.Output != 0.8 {
		t.Errorf("custom model %+v", m)
	}
	tiny, err := r.Find("my-proxy/tiny")
	if err != nil {
		t.Fatal(err)
	}
	if tiny.Name != "tiny" || tiny.ContextWindow != 128000 || tiny.MaxTokens != 16384 || len(tiny.Input) != 1 {
		t.Errorf("defaults not applied: %+v", tiny)
	}
	if k, src := r.APIKey("my-proxy"); k != "pk" || src != "env MY_PROXY_KEY" {
		t.Errorf("key %q from %q", k, src)
	}
	q, err := r.Find("ollama/qwen3:32b")
	if err != nil {
		t.Fatal(err)
	}
	if q.BaseURL != "http://127.0.0.1:11434/v1" || !q.Reasoning || !r.HasAuth(q) {
		t.Errorf("ollama model %+v auth=%v", q, r.HasAuth(q))
	}
	son, _ := r.Find("anthropic/claude-sonnet-4-5")
	if son.BaseURL != "https://gateway.example.com/anthropic" {
		t.Errorf("built-in models did not follow the provider's new base URL: %s", son.BaseURL)
	}
	req := &ai.Request{Model: son, APIKey: "k"}
	if err := r.Prepare(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if req.Headers["X-Gateway"] != "yes" {
		t.Errorf("provider headers not applied: %v", req.Headers)
	}
}

func TestBadConfigErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/config/*.yml")
	sort.Strings(files)
	var out strings.Builder
	for _, f := range files {
		name := filepath.Base(f)
		if name == "good.yml" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = withConfig(t, string(data), "", nil)
		if err == nil {
			t.Errorf("%s: loaded without error", name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, ModelsFile+": ") {
			t.Errorf("%s: error does not name the file: %s", name, msg)
		}
		// Strip the temp dir from the golden form.
		_, rest, _ := strings.Cut(msg, ModelsFile+": ")
		out.WriteString(name + ": " + rest + "\n")
	}
	golden.Check(t, "testdata/config/errors.golden", out.String())
}

func TestBadCredentialsFile(t *testing.T) {
	_, err := withConfig(t, "", "{not json", nil)
	if err == nil || !strings.Contains(err.Error(), CredentialsFile) {
		t.Fatalf("got %v", err)
	}
}

func TestKeyResolutionOrder(t *testing.T) {
	vars := map[string]string{"ANTHROPIC_API_KEY": "api", "ANTHROPIC_OAUTH_TOKEN": "oauth"}
	r, err := withConfig(t, "", "", vars)
	if err != nil {
		t.Fatal(err)
	}
	if k, src := r.APIKey("anthropic"); k != "oauth" || src != "env ANTHROPIC_OAUTH_TOKEN" {
		t.Errorf("OAuth token must win over API key: %q %q", k, src)
	}
	delete(vars, "ANTHROPIC_OAUTH_TOKEN")
	if k, _ := r.APIKey("anthropic"); k != "api" {
		t.Errorf("fallback to ANTHROPIC_API_KEY: %q", k)
	}
	r2, err := withConfig(t, "", `{"anthropic":{"type":"api_key","key":"stored"},"openai":{"type":"oauth","access":"old","expires":1}}`, vars)
	if err != nil {
		t.Fatal(err)
	}
	if k, src := r2.APIKey("anthropic"); k != "stored" || src != CredentialsFile {
		t.Errorf("stored credential must win over env: %q %q", k, src)
	}
	if k, _ := r2.APIKey("openai"); k != "" {
		t.Errorf("expired OAuth token used: %q", k)
	}
	r2.SetAPIKey("anthropic", "runtime")
	if k, src := r2.APIKey("anthropic"); k != "runtime" || src != "--api-key" {
		t.Errorf("runtime override must win: %q %q", k, src)
	}
	m, _ := r2.Find("gpt-5")
	if err := r2.Prepare(context.Background(), &ai.Request{Model: m}); err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("missing key error should name the variable: %v", err)
	}
}

func TestLiteralKeyInConfig(t *testing.T) {
	r, err := withConfig(t, "providers:\n  p:\n    baseUrl: http://h\n    api: anthropic-messages\n    apiKey: sk-literal-123\n    models: [{id: m}]\n", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if k, src := r.APIKey("p"); k != "sk-literal-123" || src != ModelsFile {
		t.Errorf("%q %q", k, src)
	}
}

func TestFind(t *testing.T) {
	r, err := Load(Options{NoFiles: true, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	withKey, err := Load(Options{NoFiles: true, Getenv: env(map[string]string{"OPENROUTER_API_KEY": "x"})})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		r       *Registry
		q, want string
	}{
		{r, "claude-sonnet-4-5", "anthropic/claude-sonnet-4-5"},
		{withKey, "claude-sonnet-4-5", "anthropic/claude-sonnet-4-5"}, // an exact id beats credentials elsewhere
		{r, "anthropic/claude-opus-4-5", "anthropic/claude-opus-4-5"},
		{r, "openai/gpt-4o", "openai/gpt-4o"},
		{r, "gpt-4o", "openai/gpt-4o"},
		{r, "gpt-5", "openai/gpt-5"}, // also an openai-codex id: provider order
		{r, "Claude Haiku 4.5 (latest)", "anthropic/claude-haiku-4-5"},
		{r, "Claude Haiku 4.5", "anthropic/claude-haiku-4-5-20251001"}, // omp's name of the dated snapshot
		{r, "openrouter/anthropic/claude-sonnet-4.5", "openrouter/anthropic/claude-sonnet-4.5"},
		{withKey, "grok-code", "openrouter/x-ai/grok-code-fast-1"}, // credentials break the tie
		{r, "grok-code", "xai/grok-code-fast-1"},
		{r, "gemini-2.5-fl", "google/gemini-2.5-flash"}, // shortest id
		{r, "opus", "anthropic/claude-opus-4-7"},        // newest version
		{r, "sonnet", "anthropic/claude-sonnet-4-6"},
		{withKey, "opus", "openrouter/anthropic/claude-opus-4.7"},
		{r, "anthropic/sonet45", "anthropic/claude-sonnet-4-5"}, // fuzzy within the named provider
		{r, "anthropic/haiku", "anthropic/claude-haiku-4-5"},
	}
	for _, tt := range tests {
		m, err := tt.r.Find(tt.q)
		if err != nil {
			t.Errorf("Find(%q): %v", tt.q, err)
			continue
		}
		if got := m.Provider + "/" + m.ID; got != tt.want {
			t.Errorf("Find(%q) = %s, want %s", tt.q, got, tt.want)
		}
	}
	if _, err := r.Find("zzzqqq"); err == nil || !strings.Contains(err.Error(), "gopi models") {
		t.Errorf("no-match error: %v", err)
	}
}

// TestUnimplementedAPI: a model whose API gopi lacks is listed, found only
// by its exact name, and refused in one line that says so.
func TestUnimplementedAPI(t *testing.T) {
	r, err := Load(Options{NoFiles: true, Getenv: env(map[string]string{"CURSOR_ACCESS_TOKEN": "x"})})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Search("cursor/")) == 0 {
		t.Fatal("cursor models are not listed")
	}
	_, err = r.Find("cursor/claude-4.6-sonnet-medium")
	want := "cursor/claude-4.6-sonnet-medium uses the cursor-agent API, which gopi does not implement yet; choose another model ('gopi models' lists them)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// Inexact queries skip it even though only cursor has credentials.
	if m, err := r.Find("sonnet"); err != nil || m.Provider == "cursor" {
		t.Errorf("Find(sonnet) = %v, %v", m, err)
	}
	m := catalogModel(catalogProviders[5].first)
	if m.Provider != "cursor" {
		t.Fatalf("catalogue order changed: %s", m.Provider)
	}
	if err := r.Prepare(context.Background(), &ai.Request{Model: m}); err == nil || !strings.Contains(err.Error(), "does not implement") {
		t.Errorf("Prepare: %v", err)
	}
}

func TestParseModelArg(t *testing.T) {
	tests := []struct {
		in, q string
		lvl   ai.ThinkingLevel
		has   bool
	}{
		{"opus:high", "opus", ai.ThinkingHigh, true},
		{"qwen3:32b", "qwen3:32b", "", false},
		{"sonnet", "sonnet", "", false},
		{"ollama/qwen3:32b:low", "ollama/qwen3:32b", ai.ThinkingLow, true},
	}
	for _, tt := range tests {
		q, l, h := ParseModelArg(tt.in)
		if q != tt.q || l != tt.lvl || h != tt.has {
			t.Errorf("ParseModelArg(%q) = %q %q %v", tt.in, q, l, h)
		}
	}
}

func TestClampThinking(t *testing.T) {
	claude := &ai.Model{ID: "claude-sonnet-4-5", API: ai.APIAnthropicMessages, Reasoning: true}
	gpt5 := &ai.Model{ID: "gpt-5", API: ai.APIOpenAIResponses, Reasoning: true}
	o3 := &ai.Model{ID: "o3", API: ai.APIOpenAIResponses, Reasoning: true}
	plain := &ai.Model{ID: "gpt-4o", API: ai.APIOpenAIResponses}
	r, err := Load(Options{NoFiles: true, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	gemini3, err := r.Find("google/gemini-3-pro-preview")
	if err != nil {
		t.Fatal(err)
	}
	sonnet46, err := r.Find("anthropic/claude-sonnet-4-6")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		m    *ai.Model
		in   ai.ThinkingLevel
		want ai.ThinkingLevel
	}{
		{plain, ai.ThinkingHigh, ai.ThinkingOff},
		{claude, ai.ThinkingXHigh, ai.ThinkingXHigh},
		{gpt5, ai.ThinkingXHigh, ai.ThinkingHigh},
		{gpt5, ai.ThinkingMinimal, ai.ThinkingMinimal},
		{o3, ai.ThinkingMinimal, ai.ThinkingLow},
		{claude, "", ai.ThinkingOff},
		{claude, ai.ThinkingMedium, ai.ThinkingMedium},
		// Catalogue specs: Gemini 3 Pro accepts low and high only; Claude
		// Sonnet 4.6 stops at high.
		{gemini3, ai.ThinkingMedium, ai.ThinkingLow},
		{gemini3, ai.ThinkingMinimal, ai.ThinkingLow},
		{gemini3, ai.ThinkingXHigh, ai.ThinkingHigh},
		{sonnet46, ai.ThinkingXHigh, ai.ThinkingHigh},
		{sonnet46, ai.ThinkingMinimal, ai.ThinkingMinimal},
	}
	for _, tt := range tests {
		if got := ClampThinking(tt.m, tt.in); got != tt.want {
			t.Errorf("ClampThinking(%s, %s) = %s, want %s", tt.m.ID, tt.in, got, tt.want)
		}
	}
}

func TestAgentDir(t *testing.T) {
	if got := AgentDir(env(map[string]string{"HOME": "/h"})); got != "/h/.gopi/agent" {
		t.Errorf("default %s", got)
	}
	if got := AgentDir(env(map[string]string{"HOME": "/h", AgentDirEnv: "~/x"})); got != "/h/x" {
		t.Errorf("override %s", got)
	}
}

// TestModelsFromFallbackDir finds omp's models.yml when the agent
// directory has none, and prefers the agent directory's own file.
func TestModelsFromFallbackDir(t *testing.T) {
	own, omp := t.TempDir(), t.TempDir()
	write := func(dir, id string) {
		yml := "providers:\n  ollama:\n    models: [{id: " + id + "}]\n"
		if err := os.WriteFile(filepath.Join(dir, ModelsFile), []byte(yml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(omp, "from-omp")
	r, err := Load(Options{AgentDir: own, Getenv: env(nil), FallbackDirs: []string{omp}})
	if err != nil || r.ConfigPath != filepath.Join(omp, ModelsFile) {
		t.Fatal(r.ConfigPath, err)
	}
	write(own, "mine")
	r, err = Load(Options{AgentDir: own, Getenv: env(nil), FallbackDirs: []string{omp}})
	if err != nil || r.ConfigPath != filepath.Join(own, ModelsFile) {
		t.Fatal(r.ConfigPath, err)
	}
}

func TestLocalBaseURLFromEnv(t *testing.T) {
	r, err := withConfig(t, "providers:\n  ollama:\n    models: [{id: llama3.2}]\n", "", map[string]string{"OLLAMA_BASE_URL": "http://gpu-box:11434"})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.Find("ollama/llama3.2")
	if got := r.BaseURL(m); got != "http://gpu-box:11434/v1" {
		t.Errorf("OLLAMA_BASE_URL not applied: %s", got)
	}
}

func TestFoundryMode(t *testing.T) {
	vars := map[string]string{
		"CLAUDE_CODE_USE_FOUNDRY": "true", "FOUNDRY_BASE_URL": "https://foundry.example.com/anthropic",
		"ANTHROPIC_FOUNDRY_API_KEY": "fk", "ANTHROPIC_API_KEY": "plain",
		"ANTHROPIC_CUSTOM_HEADERS": "x-a: 1, x-b: two\nbad-entry",
	}
	r, err := withConfig(t, "", "", vars)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.Find("claude-haiku-4-5")
	req := &ai.Request{Model: m}
	if err := r.Prepare(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if req.APIKey != "" || req.Headers["Authorization"] != "Bearer fk" || req.BaseURL != "https://foundry.example.com/anthropic" ||
		req.Headers["x-a"] != "1" || req.Headers["x-b"] != "two" || len(req.Headers) != 3 {
		t.Errorf("foundry request: key %q url %q headers %v", req.APIKey, req.BaseURL, req.Headers)
	}
	vars["CLAUDE_CODE_USE_FOUNDRY"] = "0"
	req = &ai.Request{Model: m}
	if err := r.Prepare(context.Background(), req); err != nil || req.APIKey != "plain" || req.BaseURL != "" {
		t.Errorf("without foundry: %v %q %q", err, req.APIKey, req.BaseURL)
	}
}

// TestConfigFileProblems covers the file-level failures: an unreadable
// models.yml, a broken legacy models.json (read when models.yml is absent)
// and an empty file, which is no configuration rather than an error.
func TestConfigFileProblems(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ModelsFile), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Load(Options{AgentDir: dir, Getenv: env(nil)})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ModelsFile)) {
		t.Errorf("unreadable models.yml: %v", err)
	}

	dir = t.TempDir()
	legacy := `{"providers": {"x": {"baseUrl": "http://h", "api": "openai-chat"}}}`
	if err := os.WriteFile(filepath.Join(dir, LegacyModelsFile), []byte(legacy), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(Options{AgentDir: dir, Getenv: env(nil)})
	want := filepath.Join(dir, LegacyModelsFile) + `: providers.x.api: unknown API "openai-chat"`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("bad models.json: got %v, want prefix %q", err, want)
	}

	for _, empty := range []string{"", "# nothing configured yet\n", "providers:\n"} {
		r, err := withConfig(t, empty+"\n", "", nil)
		if err != nil {
			t.Errorf("%q: %v", empty, err)
			continue
		}
		if _, err := r.Find("anthropic/claude-sonnet-4-5"); err != nil {
			t.Errorf("%q: the catalog is gone: %v", empty, err)
		}
	}
}

// An omp models.yml uses fields gopi's format does not have; they are
// accepted (auth: none makes the key optional, modelOverrides change a
// built-in model, compat is the provider's default).
func TestOMPModelsFileFields(t *testing.T) {
	dir := t.TempDir()
	yml := `providers:
  local:
    baseUrl: http://127.0.0.1:9/v1
    api: openai-completions
    auth: none
    authHeader: true
    disableStrictTools: true
    discovery: {type: llama.cpp}
    compat: {supportsStore: false}
    models:
      - id: tiny
        thinking: {minLevel: low}
        premiumMultiplier: 2
        contextPromotionTarget: local/big
  anthropic:
    auth: apiKey
    modelOverrides:
      claude-sonnet-4-5:
        name: Sonnet (team)
        maxTokens: 1234
        contextPromotionTarget: anthropic/claude-opus-4-5
equivalence:
  exclude: [x]
`
	if err := os.WriteFile(filepath.Join(dir, ModelsFile), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := Load(Options{AgentDir: dir, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	tiny, err := reg.Find("local/tiny")
	if err != nil {
		t.Fatal(err)
	}
	if tiny.ContextPromotionTarget != "local/big" {
		t.Errorf("contextPromotionTarget %q", tiny.ContextPromotionTarget)
	}
	if !reg.HasAuth(tiny) || tiny.Compat["supportsStore"] != false {
		t.Errorf("auth none / provider compat not applied: auth %v compat %v", reg.HasAuth(tiny), tiny.Compat)
	}
	sonnet, err := reg.Find("anthropic/claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	if sonnet.Name != "Sonnet (team)" || sonnet.MaxTokens != 1234 || sonnet.ContextPromotionTarget != "anthropic/claude-opus-4-5" {
		t.Errorf("override not applied: %+v", sonnet)
	}
	if err := os.WriteFile(filepath.Join(dir, ModelsFile), []byte("providers:\n  x:\n    auth: magic\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Options{AgentDir: dir}); err == nil || !strings.Contains(err.Error(), "auth") {
		t.Errorf("bad auth value: %v", err)
	}
}

// Bedrock needs no key when the environment names AWS credentials.
func TestBedrockAmbientAuth(t *testing.T) {
	env := map[string]string{}
	r, err := Load(Options{NoFiles: true, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	m := &ai.Model{ID: "anthropic.claude-sonnet-4-5-20250929-v1:0", Provider: BedrockProvider, API: ai.APIBedrockConverseStream}
	if r.HasAuth(m) {
		t.Fatal("bedrock has auth with an empty environment")
	}
	if err := r.Prepare(context.Background(), &ai.Request{Model: m}); err == nil || !strings.Contains(err.Error(), "AWS_BEARER_TOKEN_BEDROCK") {
		t.Fatalf("Prepare without credentials: %v", err)
	}
	env["AWS_PROFILE"] = "dev"
	req := &ai.Request{Model: m}
	if r.AmbientAuth(BedrockProvider) != "env AWS_PROFILE" || r.AmbientAuth("anthropic") != "" {
		t.Errorf("AmbientAuth: %q", r.AmbientAuth(BedrockProvider))
	}
	if !r.HasAuth(m) || r.Prepare(context.Background(), req) != nil || req.APIKey != "" {
		t.Fatalf("with AWS_PROFILE: auth %v, key %q", r.HasAuth(m), req.APIKey)
	}
	delete(env, "AWS_PROFILE")
	env["AWS_BEARER_TOKEN_BEDROCK"] = "bedrock-api-key"
	req = &ai.Request{Model: m}
	if err := r.Prepare(context.Background(), req); err != nil || req.APIKey != "bedrock-api-key" {
		t.Fatalf("with a Bedrock API key: %v, key %q", err, req.APIKey)
	}
}

// Bedrock requests share one provider per client for the registry's life
// (its AWS session and credentials cache); other APIs get none.
func TestBedrockProviderKept(t *testing.T) {
	r, err := Load(Options{NoFiles: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	m := &ai.Model{ID: "x", Provider: BedrockProvider, API: ai.APIBedrockConverseStream}
	a := r.bedrockProvider(&ai.Request{Model: m}, nil)
	if a == nil || r.bedrockProvider(&ai.Request{Model: m}, nil) != a {
		t.Error("a second request built a new provider")
	}
	if o := r.bedrockProvider(&ai.Request{Model: m}, &http.Client{}); o == a {
		t.Error("another client shares the provider")
	}
	if r.bedrockProvider(&ai.Request{Model: &ai.Model{API: ai.APIAnthropicMessages}}, nil) != nil {
		t.Error("a provider for another API")
	}
}

// fakeStore is a StoredCredentials that counts resolutions.
type fakeStore struct {
	key, base, source string
	err               error
	resolved          int
}

func (f *fakeStore) Resolve(ctx context.Context, provider, session string) (string, string, string, error) {
	f.resolved++
	if provider != "anthropic" {
		return "", "", "", nil
	}
	return f.key, f.base, f.source, f.err
}

func (f *fakeStore) Stored(provider string) string {
	if provider == "anthropic" {
		return f.source
	}
	return ""
}

func TestStoredCredentialsOrder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, CredentialsFile), []byte(`{"anthropic":{"type":"api_key","key":"from-auth-json"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	fs := &fakeStore{key: "from-db", base: "https://proxy.example/", source: "agent.db"}
	r, err := Load(Options{AgentDir: dir, Getenv: env(map[string]string{"ANTHROPIC_API_KEY": "from-env"}), Credentials: fs})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := r.Find("anthropic/claude-sonnet-4-5")
	// Listing asks where keys come from without resolving (no refresh).
	if src := r.KeySource("anthropic"); src != "agent.db" || !r.HasAuth(m) || fs.resolved != 0 {
		t.Fatal(src, fs.resolved)
	}
	req := &ai.Request{Model: m}
	if err := r.Prepare(context.Background(), req); err != nil || req.APIKey != "from-db" || req.BaseURL != "https://proxy.example" {
		t.Fatal(req.APIKey, req.BaseURL, err)
	}
	// A stored credential that cannot be used gives way to auth.json …
	fs.key, fs.err = "", errors.New("anthropic: refresh refused; run `gopi login anthropic`")
	if k, src := r.APIKey("anthropic"); k != "from-auth-json" || src != CredentialsFile {
		t.Fatal(k, src)
	}
	// … and is the error when nothing else has a key.
	r2, _ := Load(Options{AgentDir: t.TempDir(), Getenv: env(nil), Credentials: fs})
	if err := r2.Prepare(context.Background(), &ai.Request{Model: m}); err == nil || !strings.Contains(err.Error(), "gopi login anthropic") {
		t.Fatal(err)
	}
	// The runtime override comes first.
	r.SetAPIKey("anthropic", "flag")
	if k, src := r.APIKey("anthropic"); k != "flag" || src != "--api-key" {
		t.Fatal(k, src)
	}
}

// BenchmarkLoad measures building a registry from the built-in catalogue
// alone: the start-up cost the catalogue adds to every command.
func BenchmarkLoad(b *testing.B) {
	getenv := env(nil)
	for b.Loop() {
		if _, err := Load(Options{NoFiles: true, Getenv: getenv}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFindExact is the lookup `gopi -p --model ID` makes.
func BenchmarkFindExact(b *testing.B) {
	r, err := Load(Options{NoFiles: true, Getenv: env(nil)})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := r.Find("claude-sonnet-4-5"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCatalogueMaps: a built catalogue model carries its headers and
// compat settings.
func TestCatalogueMaps(t *testing.T) {
	r, err := Load(Options{NoFiles: true, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Find("kimi-code/kimi-k2.5")
	if err != nil {
		t.Fatal(err)
	}
	if m.Headers["User-Agent"] != "KimiCLI/1.0" || m.Headers["X-Msh-Platform"] != "kimi_cli" {
		t.Errorf("headers %v", m.Headers)
	}
	m, err = r.Find("alibaba-coding-plan/glm-4.7")
	if err != nil {
		t.Fatal(err)
	}
	if m.Compat["supportsDeveloperRole"] != false || m.Thinking == nil || m.Thinking.MaxLevel != ai.ThinkingHigh {
		t.Errorf("compat %v thinking %+v", m.Compat, m.Thinking)
	}
}

// TestCatalogueIsPointerFree keeps the generated tables free of pointers:
// the garbage collector scans every pointer of package data on every
// cycle, and 2,574 models of strings would be some 26,000 of them.
func TestCatalogueIsPointerFree(t *testing.T) {
	var walk func(reflect.Type) bool
	walk = func(ty reflect.Type) bool {
		switch ty.Kind() {
		case reflect.Struct:
			for i := range ty.NumField() {
				if !walk(ty.Field(i).Type) {
					return false
				}
			}
			return true
		case reflect.Array:
			return walk(ty.Elem())
		case reflect.String, reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			return false
		}
		return true
	}
	if !walk(reflect.TypeOf(catalogEntries)) {
		t.Error("catalogEntry holds a pointer (a string, slice, map, …); keep strings in catalogText")
	}
}

// TestFirstWithAuthIsTheFirstModelWithCredentials compares the
// per-provider walk with the obvious one over every model, for keys of
// providers early, late and nowhere in the catalogue.
func TestFirstWithAuthIsTheFirstModelWithCredentials(t *testing.T) {
	for _, env := range []map[string]string{
		{},
		{"ANTHROPIC_API_KEY": "k"},
		{"ZAI_API_KEY": "k"},
		{"OPENROUTER_API_KEY": "k", "XAI_API_KEY": "k"},
	} {
		reg, err := Load(Options{NoFiles: true, Getenv: func(k string) string { return env[k] }})
		if err != nil {
			t.Fatal(err)
		}
		got := reg.FirstWithAuth()
		var want *ai.Model
		for _, m := range reg.Models() {
			if reg.HasAuth(m) {
				want = m
				break
			}
		}
		if got != want {
			t.Errorf("env %v: FirstWithAuth = %v, the walk over Models finds %v", env, got, want)
		}
		check := reg.AuthCheck()
		for _, m := range reg.Models() {
			if check(m) != reg.HasAuth(m) {
				t.Fatalf("env %v: AuthCheck and HasAuth disagree on %s/%s", env, m.Provider, m.ID)
			}
		}
	}
}

// renewingStore is a fakeStore that can renew a sign-in.
type renewingStore struct {
	fakeStore
	asked []string
}

func (f *renewingStore) Renew(_ context.Context, provider, stale string) (string, string, error) {
	f.asked = append(f.asked, provider+" "+stale)
	return "renewed", "", nil
}

// RenewKey goes to a store that can renew; without one, or under a
// runtime override, there is nothing to renew.
func TestRenewKey(t *testing.T) {
	rs := &renewingStore{fakeStore: fakeStore{key: "old", source: "agent.db"}}
	r, err := Load(Options{NoFiles: true, Getenv: env(nil), Credentials: rs})
	if err != nil {
		t.Fatal(err)
	}
	if k, err := r.RenewKey(context.Background(), "anthropic", "old"); k != "renewed" || err != nil || len(rs.asked) != 1 || rs.asked[0] != "anthropic old" {
		t.Fatal(k, err, rs.asked)
	}
	r.SetAPIKey("anthropic", "flag")
	if k, _ := r.RenewKey(context.Background(), "anthropic", "flag"); k != "" {
		t.Fatal(k)
	}
	plain, _ := Load(Options{NoFiles: true, Getenv: env(nil), Credentials: &fakeStore{key: "old"}})
	if k, err := plain.RenewKey(context.Background(), "anthropic", "old"); k != "" || err != nil {
		t.Fatal(k, err)
	}
}
