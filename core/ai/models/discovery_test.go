package models

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// localServer answers the discovery requests of one server kind the way
// the real server does (paths, methods and JSON shapes), recording the
// Authorization header it saw.
func localServer(t *testing.T, routes map[string]string) (*httptest.Server, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		key := r.Method + " " + r.URL.Path
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var req struct{ Model string }
			if json.Unmarshal(body, &req) != nil || req.Model == "" {
				http.Error(w, `{"error":"model is required"}`, http.StatusBadRequest)
				return
			}
			key += " " + req.Model
		}
		answer, ok := routes[key]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	return srv, &auth
}

// closedURL returns the URL of a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + l.Addr().String()
	l.Close()
	return u
}

// discoverWith loads a registry whose local servers are at the given URLs
// (the rest at closed ports), runs discovery and waits for it.
func discoverWith(t *testing.T, yml string, vars map[string]string) *Registry {
	t.Helper()
	all := map[string]string{"OLLAMA_BASE_URL": closedURL(t), "LM_STUDIO_BASE_URL": closedURL(t), "LLAMA_CPP_BASE_URL": closedURL(t)}
	for k, v := range vars {
		all[k] = v
	}
	if _, ok := vars["vllm"]; !ok {
		yml = "providers:\n  vllm:\n    baseUrl: " + closedURL(t) + "/v1\n" + strings.TrimPrefix(yml, "providers:\n")
	} else {
		yml = "providers:\n  vllm:\n    baseUrl: " + vars["vllm"] + "/v1\n" + strings.TrimPrefix(yml, "providers:\n")
	}
	r, err := withConfig(t, yml, "", all)
	if err != nil {
		t.Fatal(err)
	}
	r.Discover(context.Background(), nil, time.Minute)
	r.WaitDiscovery(context.Background())
	return r
}

func mustFind(t *testing.T, r *Registry, q string) *ai.Model {
	t.Helper()
	m, err := r.Find(q)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDiscoverOllama(t *testing.T) {
	srv, _ := localServer(t, map[string]string{
		"GET /api/tags":            `{"models":[{"name":"qwen3:32b","model":"qwen3:32b","size":1},{"name":"llava:7b","model":"llava:7b"},{"name":"tiny","model":"tiny:latest"}]}`,
		"POST /api/show qwen3:32b": `{"model_info":{"general.architecture":"qwen3","qwen3.context_length":40960},"capabilities":["completion","tools","thinking"]}`,
		"POST /api/show llava:7b":  `{"parameters":"temperature 0.2\nnum_ctx 4096","capabilities":["completion","vision"]}`,
		// tiny:latest has no /api/show answer: defaults.
	})
	r := discoverWith(t, "", map[string]string{"OLLAMA_BASE_URL": srv.URL})
	q := mustFind(t, r, "ollama/qwen3:32b")
	if q.ContextWindow != 40960 || q.MaxTokens != 8192 || !q.Reasoning || q.SupportsImages() || q.API != ai.APIOpenAICompletions || q.BaseURL != srv.URL+"/v1" {
		t.Errorf("qwen3: %+v", q)
	}
	l := mustFind(t, r, "ollama/llava:7b")
	if l.ContextWindow != 4096 || l.MaxTokens != 4096 || !l.SupportsImages() || l.Reasoning {
		t.Errorf("llava: %+v", l)
	}
	tiny := mustFind(t, r, "ollama/tiny:latest")
	if tiny.Name != "tiny" || tiny.ContextWindow != discoveredContext {
		t.Errorf("tiny: %+v", tiny)
	}
	if src := r.CredentialSource("ollama"); src != "none" {
		t.Errorf("credential source %q", src)
	}
}

func TestDiscoverLlamaCpp(t *testing.T) {
	srv, auth := localServer(t, map[string]string{
		"GET /v1/models": `{"object":"list","data":[{"id":"gemma-3-4b-it-Q4_K_M.gguf","object":"model","owned_by":"llamacpp","meta":{"n_ctx_train":131072,"n_params":3880263168}}]}`,
		"GET /props":     `{"default_generation_settings":{"n_ctx":16384,"temperature":0.8},"modalities":{"vision":true}}`,
	})
	r := discoverWith(t, "", map[string]string{"LLAMA_CPP_BASE_URL": srv.URL, "LLAMA_CPP_API_KEY": "sekrit"})
	m := mustFind(t, r, "llama.cpp/gemma-3-4b-it-Q4_K_M.gguf")
	if m.ContextWindow != 16384 || !m.SupportsImages() || m.BaseURL != srv.URL+"/v1" {
		t.Errorf("served context or vision not taken from /props: %+v", m)
	}
	for _, a := range *auth {
		if a != "Bearer sekrit" {
			t.Errorf("probe sent Authorization %q", a)
		}
	}
}

func TestDiscoverLlamaCppPython(t *testing.T) {
	// llama-cpp-python's server: /v1/models only, owned_by "me".
	srv, _ := localServer(t, map[string]string{
		"GET /v1/models": `{"object":"list","data":[{"id":"qwen2.5-coder","object":"model","owned_by":"me","permissions":[]}]}`,
	})
	r := discoverWith(t, "", map[string]string{"LLAMA_CPP_BASE_URL": srv.URL})
	m := mustFind(t, r, "llama.cpp/qwen2.5-coder")
	if m.ContextWindow != discoveredContext || m.Compat["emptyContentWithToolCalls"] != true {
		t.Errorf("%+v", m)
	}
}

func TestDiscoverLMStudioAndVLLM(t *testing.T) {
	lms, _ := localServer(t, map[string]string{
		"GET /v1/models": `{"data":[{"id":"qwen/qwen3-coder-30b","object":"model","owned_by":"organization_owner"},` +
			`{"id":"qwen2-vl-7b-instruct","object":"model","owned_by":"organization_owner"},` +
			`{"id":"text-embedding-nomic-embed-text-v1.5","object":"model","owned_by":"organization_owner"},` +
			`{"id":"unlisted","object":"model","owned_by":"organization_owner"}],"object":"list"}`,
		"GET /api/v0/models": `{"object":"list","data":[` +
			`{"id":"qwen/qwen3-coder-30b","object":"model","type":"llm","state":"loaded","max_context_length":262144,"loaded_context_length":32768},` +
			`{"id":"qwen2-vl-7b-instruct","object":"model","type":"vlm","state":"not-loaded","max_context_length":32768},` +
			`{"id":"text-embedding-nomic-embed-text-v1.5","object":"model","type":"embeddings","max_context_length":2048}]}`,
	})
	vllm, _ := localServer(t, map[string]string{
		"GET /v1/models": `{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B-Instruct","object":"model","owned_by":"vllm","root":"Qwen/Qwen2.5-7B-Instruct","max_model_len":32768}]}`,
	})
	r := discoverWith(t, "", map[string]string{"LM_STUDIO_BASE_URL": lms.URL + "/v1", "vllm": vllm.URL})
	if m := mustFind(t, r, "lm-studio/qwen/qwen3-coder-30b"); m.ContextWindow != 32768 || m.BaseURL != lms.URL+"/v1" {
		t.Errorf("lm-studio: the loaded context should win: %+v", m)
	}
	if m := mustFind(t, r, "lm-studio/qwen2-vl-7b-instruct"); m.ContextWindow != 32768 || !m.SupportsImages() {
		t.Errorf("lm-studio vlm: %+v", m)
	}
	if m := mustFind(t, r, "lm-studio/unlisted"); m.ContextWindow != discoveredContext {
		t.Errorf("lm-studio model without details: %+v", m)
	}
	for _, m := range r.Models() {
		if strings.Contains(m.ID, "embedding") {
			t.Errorf("embedding model listed: %s", m.ID)
		}
	}
	if m := mustFind(t, r, "vllm/Qwen/Qwen2.5-7B-Instruct"); m.ContextWindow != 32768 || m.MaxTokens != 8192 {
		t.Errorf("vllm: %+v", m)
	}
	if len(r.DiscoveryErrors()) != 2 { // ollama and llama.cpp are down
		t.Errorf("errors: %v", r.DiscoveryErrors())
	}
}

// TestDiscoveryKeepsModelsFile: a models.yml entry wins over the same id
// found on the server; other found models are added beside it.
func TestDiscoveryKeepsModelsFile(t *testing.T) {
	srv, _ := localServer(t, map[string]string{
		"GET /api/tags": `{"models":[{"name":"qwen3:32b","model":"qwen3:32b"},{"name":"phi4","model":"phi4"}]}`,
	})
	r := discoverWith(t, "providers:\n  ollama:\n    models: [{id: \"qwen3:32b\", contextWindow: 99999}]\n", map[string]string{"OLLAMA_BASE_URL": srv.URL})
	if m := mustFind(t, r, "ollama/qwen3:32b"); m.ContextWindow != 99999 {
		t.Errorf("models.yml entry replaced: %+v", m)
	}
	mustFind(t, r, "ollama/phi4")
	n := 0
	for _, m := range r.Models() {
		if m.Provider == "ollama" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d ollama models", n)
	}
}

// TestDiscoveryDoesNotBlock: Discover arms the probes without starting
// them; a listing starts them and returns while a server has not answered;
// the registry works meanwhile without the server's models, and gains them
// once the answer is in.
func TestDiscoveryDoesNotBlock(t *testing.T) {
	release := make(chan struct{})
	asked := make(chan struct{}, 1)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r) // /api/show: no details
			return
		}
		select {
		case asked <- struct{}{}:
		default:
		}
		<-release
		io.WriteString(w, `{"models":[{"name":"late","model":"late"}]}`)
	}))
	defer slow.Close()
	defer close(release) // unblocks the handler if the test fails early
	r, err := withConfig(t, "providers:\n  vllm:\n    baseUrl: "+closedURL(t)+"/v1\n", "", map[string]string{
		"OLLAMA_BASE_URL": slow.URL, "LM_STUDIO_BASE_URL": closedURL(t), "LLAMA_CPP_BASE_URL": closedURL(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.Discover(ctx, nil, time.Minute)
	// A lookup of a hosted model neither waits nor starts the probes.
	if _, err := r.Find("claude-sonnet-4-5"); err != nil {
		t.Fatal(err)
	}
	if r.probing.Load() {
		t.Fatal("an exact hosted lookup started discovery")
	}
	// A listing starts them and returns with the probe outstanding.
	for _, m := range r.Models() {
		if m.Provider == "ollama" {
			t.Fatalf("model before the answer: %s", m.ID)
		}
	}
	<-asked
	for _, m := range r.Models() {
		if m.Provider == "ollama" {
			t.Fatalf("model before the answer: %s", m.ID)
		}
	}
	release <- struct{}{} // the server answers now
	if m := mustFind(t, r, "ollama/late"); m.Provider != "ollama" {
		t.Errorf("%+v", m)
	}
}

// hangingServer accepts requests and never answers them (until the client
// gives up or the test ends).
func hangingServer(t *testing.T) *httptest.Server {
	t.Helper()
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(hang) })
	return srv
}

// TestDiscoveryTimeout: a server that never answers ends its probe at the
// timeout with an error; lookups naming it then fail instead of hanging.
func TestDiscoveryTimeout(t *testing.T) {
	srv := hangingServer(t)
	r, err := withConfig(t, "providers:\n  vllm:\n    baseUrl: "+closedURL(t)+"/v1\n", "", map[string]string{
		"OLLAMA_BASE_URL": srv.URL, "LM_STUDIO_BASE_URL": closedURL(t), "LLAMA_CPP_BASE_URL": closedURL(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Discover(context.Background(), nil, time.Millisecond)
	if _, err := r.Find("ollama/anything"); err == nil {
		t.Fatal("found a model on a server that never answered")
	}
	if err := r.DiscoveryErrors()["ollama"]; err == nil {
		t.Errorf("ollama probe error: %v", err)
	}
}

// TestDiscoveryCancel: ending the owner's context ends the probes.
func TestDiscoveryCancel(t *testing.T) {
	srv := hangingServer(t)
	r, err := withConfig(t, "", "", map[string]string{"OLLAMA_BASE_URL": srv.URL, "LM_STUDIO_BASE_URL": srv.URL, "LLAMA_CPP_BASE_URL": srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Discover(ctx, nil, time.Hour)
	cancel()
	r.WaitDiscovery(context.Background()) // returns only when every probe has ended
	if len(r.DiscoveryErrors()) != 4 {
		t.Errorf("errors: %v", r.DiscoveryErrors())
	}
}
