package models

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// Local model discovery: the models of a local server (Ollama, llama.cpp's
// llama-server, llama-cpp-python, LM Studio, vLLM) are found by asking the
// server, without a models.yml entry. Registry.Discover arms one probe per
// local provider, started in the background when a lookup or listing can
// use it; a server that is down costs nothing at start (a refused connection fails at once, a
// silent one at DiscoveryTimeout). The registry gains a probe's models the
// next time it is read after the probe ended; Find waits for a probe only
// when the query names that provider or matches nothing else, and never
// longer than the probe's timeout. Each registry probes once: a program
// that loads one registry per process (every gopi command) asks each
// server once per process.

// DiscoveryTimeout bounds one probe of a local server, all its requests
// included.
const DiscoveryTimeout = 300 * time.Millisecond

// maxDiscoveryBody caps what is read from one discovery answer.
const maxDiscoveryBody = 4 << 20

// Defaults for what a server does not report (omp's).
const (
	discoveredContext   = 128000 // context window when the server does not say
	discoveredMaxTokens = 8192   // output limit cap
)

// serverKind is how a local server lists its models.
type serverKind int

const (
	kindOpenAI   serverKind = iota // GET /v1/models (vLLM, llama-cpp-python)
	kindOllama                     // GET /api/tags, then POST /api/show per model
	kindLlamaCpp                   // GET /v1/models and GET /props (llama-server)
	kindLMStudio                   // GET /v1/models and GET /api/v0/models (LM Studio)
)

// localServers are the providers discovery probes, and how.
var localServers = map[string]serverKind{
	"ollama":    kindOllama,
	"llama.cpp": kindLlamaCpp,
	"lm-studio": kindLMStudio,
	"vllm":      kindOpenAI,
}

// probe is one background discovery of a provider's server.
type probe struct {
	provider string
	done     chan struct{} // closed when found and err are set
	found    []*ai.Model
	err      error
	merged   bool // guarded by Registry.mu
}

// Discover arms discovery of the local servers' providers (those of
// localServers the registry has) and returns at once. The probes start in
// the background when they can matter: a listing (Models, Search,
// WaitDiscovery), or a Find that names a local provider or matches nothing
// else; a run that only looks up a hosted model never probes. Each probe
// stops after timeout (0: DiscoveryTimeout) or when ctx ends, whichever
// comes first. client nil means a client of its own that never uses a
// proxy. Call it once, after Load and before the registry is shared.
func (r *Registry) Discover(ctx context.Context, client *http.Client, timeout time.Duration) {
	if timeout <= 0 {
		timeout = DiscoveryTimeout
	}
	r.discover = func() {
		r.startProbes(ctx, client, timeout)
		r.probing.Store(true)
	}
}

// probesStarted starts the armed probes once and reports whether there
// are any.
func (r *Registry) probesStarted() bool {
	if r.discover == nil {
		return false
	}
	r.discoverOnce.Do(r.discover)
	return len(r.probes) > 0
}

// startProbes launches one probe per local provider.
func (r *Registry) startProbes(ctx context.Context, client *http.Client, timeout time.Duration) {
	if client == nil {
		client = &http.Client{Transport: &http.Transport{
			Proxy:       nil, // local servers are never behind the user's proxy
			DialContext: (&net.Dialer{Timeout: timeout}).DialContext,
		}}
	}
	for _, p := range r.providers {
		kind, ok := localServers[p.Name]
		if !ok {
			continue
		}
		pr := &probe{provider: p.Name, done: make(chan struct{})}
		base := strings.TrimRight(r.providerBaseURL(p), "/")
		key, _ := r.APIKey(p.Name)
		api := p.API
		r.probes = append(r.probes, pr)
		go func() {
			defer close(pr.done)
			pctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			var listed []listedModel
			listed, pr.err = probeServer(pctx, client, kind, base, key)
			for _, l := range listed {
				pr.found = append(pr.found, discoveredModel(pr.provider, api, base, l))
			}
		}()
	}
}

// providerBaseURL is a provider's base URL after its environment override.
func (r *Registry) providerBaseURL(p *ProviderInfo) string {
	return r.BaseURL(&ai.Model{Provider: p.Name, BaseURL: p.BaseURL})
}

// DiscoveryErrors returns, for each local provider whose finished probe
// failed, the reason (a server that is not running is the common one).
func (r *Registry) DiscoveryErrors() map[string]error {
	out := map[string]error{}
	if !r.probesStarted() {
		return out
	}
	for _, pr := range r.probes {
		select {
		case <-pr.done:
			if pr.err != nil {
				out[pr.provider] = pr.err
			}
		default:
		}
	}
	return out
}

// WaitDiscovery blocks until every probe has ended (each is bounded by
// DiscoveryTimeout) or ctx ends: for listings that should show the local
// servers' models.
func (r *Registry) WaitDiscovery(ctx context.Context) {
	if !r.probesStarted() {
		return
	}
	for _, pr := range r.probes {
		select {
		case <-pr.done:
		case <-ctx.Done():
			return
		}
	}
}

// waitDiscovery waits for the probes of provider (every probe when
// provider is "") and reports whether there were any.
func (r *Registry) waitDiscovery(provider string) bool {
	if !r.probesStarted() {
		return false
	}
	waited := false
	for _, pr := range r.probes {
		if provider == "" || pr.provider == provider {
			<-pr.done
			waited = true
		}
	}
	return waited
}

// mergeProbesLocked adds the models of probes that have ended (the caller
// holds r.mu). It never starts the probes.
func (r *Registry) mergeProbesLocked() {
	if !r.probing.Load() {
		return // not started: nothing to merge, and a merge must not start them
	}
	for _, pr := range r.probes {
		if pr.merged {
			continue
		}
		select {
		case <-pr.done:
			pr.merged = true
			r.slots = mergeDiscovered(r.slots, pr.found)
		default:
		}
	}
}

// mergeDiscovered appends the found models that the registry does not have
// yet (models.yml entries win).
func mergeDiscovered(slots []slot, found []*ai.Model) []slot {
	if len(found) == 0 {
		return slots
	}
	have := map[string]bool{}
	for i := range slots {
		if slots[i].provider() == found[0].Provider {
			have[slots[i].id()] = true
		}
	}
	for _, m := range found {
		if !have[m.ID] {
			have[m.ID] = true
			slots = append(slots, slot{m: m})
		}
	}
	return slots
}

// discoveredModel builds the registry entry for a model a server listed.
func discoveredModel(provider string, api ai.API, base string, l listedModel) *ai.Model {
	m := &ai.Model{
		ID: l.ID, Name: l.ID, API: api, Provider: provider, BaseURL: base,
		Reasoning: l.Think, Input: inText, ContextWindow: discoveredContext, MaxTokens: discoveredMaxTokens,
	}
	if l.Name != "" {
		m.Name = l.Name
	}
	if l.Vision {
		m.Input = inTextImage
	}
	if l.Context > 0 {
		m.ContextWindow = l.Context
		m.MaxTokens = min(l.Context, discoveredMaxTokens)
	}
	if l.PythonServer {
		m.Compat = map[string]any{"emptyContentWithToolCalls": true}
	}
	return m
}

// probeServer asks one server for its models. base is the provider's
// OpenAI-style root ("http://127.0.0.1:11434/v1").
func probeServer(ctx context.Context, client *http.Client, kind serverKind, base, key string) ([]listedModel, error) {
	root := strings.TrimSuffix(base, "/v1")
	switch kind {
	case kindOllama:
		return probeOllama(ctx, client, root, key)
	case kindLlamaCpp:
		return probeLlamaCpp(ctx, client, base, root, key)
	case kindLMStudio:
		return probeLMStudio(ctx, client, base, root, key)
	}
	return probeOpenAI(ctx, client, base, key)
}

// probeLlamaCpp lists llama-server's models, with the context and image
// support of GET /props (asked beside /v1/models; its answer is optional).
func probeLlamaCpp(ctx context.Context, client *http.Client, base, root, key string) ([]listedModel, error) {
	type props struct {
		ctx    int
		vision bool
	}
	ch := make(chan props, 1)
	go func() {
		var p props
		if body, err := fetch(ctx, client, http.MethodGet, root+"/props", key, nil); err == nil {
			p.ctx, p.vision, _ = decodeLlamaCppProps(body)
		}
		ch <- p
	}()
	listed, err := probeOpenAI(ctx, client, base, key)
	p := <-ch
	for i := range listed {
		if p.ctx > 0 {
			listed[i].Context = p.ctx // the served context beats the trained one
		}
		listed[i].Vision = listed[i].Vision || p.vision
	}
	return listed, err
}

// probeLMStudio lists LM Studio's models, with the context lengths and
// types of its own GET /api/v0/models (asked beside /v1/models; optional).
// Embedding models are left out.
func probeLMStudio(ctx context.Context, client *http.Client, base, root, key string) ([]listedModel, error) {
	ch := make(chan map[string]lmStudioModel, 1)
	go func() {
		var info map[string]lmStudioModel
		if body, err := fetch(ctx, client, http.MethodGet, root+"/api/v0/models", key, nil); err == nil {
			info, _ = decodeLMStudioModels(body)
		}
		ch <- info
	}()
	listed, err := probeOpenAI(ctx, client, base, key)
	info := <-ch
	out := listed[:0]
	for _, l := range listed {
		if x, ok := info[l.ID]; ok {
			if x.Embed {
				continue
			}
			l.Context, l.Vision = x.Context, x.Vision
		}
		out = append(out, l)
	}
	return out, err
}

func probeOpenAI(ctx context.Context, client *http.Client, base, key string) ([]listedModel, error) {
	body, err := fetch(ctx, client, http.MethodGet, base+"/models", key, nil)
	if err != nil {
		return nil, err
	}
	listed, err := decodeOpenAIModels(body)
	if err != nil {
		return nil, fmt.Errorf("%s/models: %w", base, err)
	}
	return listed, nil
}

func probeOllama(ctx context.Context, client *http.Client, root, key string) ([]listedModel, error) {
	body, err := fetch(ctx, client, http.MethodGet, root+"/api/tags", key, nil)
	if err != nil {
		return nil, err
	}
	listed, err := decodeOllamaTags(body)
	if err != nil {
		return nil, fmt.Errorf("%s/api/tags: %w", root, err)
	}
	// /api/show per model, concurrently; a model whose answer does not
	// come in time keeps the defaults.
	var wg sync.WaitGroup
	for i := range listed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := json.Marshal(map[string]string{"model": listed[i].ID})
			if body, err := fetch(ctx, client, http.MethodPost, root+"/api/show", key, req); err == nil {
				_ = decodeOllamaShow(body, &listed[i])
			}
		}()
	}
	wg.Wait()
	return listed, nil
}

// fetch makes one discovery request and returns the body of a 2xx answer.
func fetch(ctx context.Context, client *http.Client, method, url, key string, body []byte) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDiscoveryBody))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s %s: HTTP %d", method, url, resp.StatusCode)
	}
	return data, nil
}
