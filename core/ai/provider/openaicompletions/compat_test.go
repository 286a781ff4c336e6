package openaicompletions

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

func TestPresetsTable(t *testing.T) {
	want := map[string]string{ // name → key variable from the environment reference
		"ollama": "OLLAMA_API_KEY", "lm-studio": "LM_STUDIO_API_KEY", "llama.cpp": "LLAMA_CPP_API_KEY",
		"vllm": "VLLM_API_KEY", "openrouter": "OPENROUTER_API_KEY", "groq": "GROQ_API_KEY",
		"xai": "XAI_API_KEY", "deepseek": "DEEPSEEK_API_KEY", "mistral": "MISTRAL_API_KEY",
		"together": "TOGETHER_API_KEY", "fireworks": "FIREWORKS_API_KEY", "cerebras": "CEREBRAS_API_KEY",
	}
	if len(Presets) != len(want) {
		t.Errorf("%d presets, want %d", len(Presets), len(want))
	}
	for _, p := range Presets {
		key, ok := want[p.Name]
		if !ok {
			t.Errorf("unexpected preset %q", p.Name)
			continue
		}
		if len(p.KeyEnv) == 0 || p.KeyEnv[0] != key {
			t.Errorf("%s: key variables %v, want %s", p.Name, p.KeyEnv, key)
		}
		if !strings.HasPrefix(p.BaseURL, "http") || p.Compat.MaxTokensField == "" {
			t.Errorf("%s: incomplete preset %+v", p.Name, p)
		}
		if got, ok := PresetByName(p.Name); !ok || got.Name != p.Name {
			t.Errorf("PresetByName(%q) failed", p.Name)
		}
	}
	local := map[string]string{"ollama": "http://127.0.0.1:11434/v1", "lm-studio": "http://127.0.0.1:1234/v1", "llama.cpp": "http://127.0.0.1:8080/v1"}
	for name, url := range local {
		p, _ := PresetByName(name)
		if p.BaseURL != url || !p.KeyOptional {
			t.Errorf("%s: base URL %s (optional key %v), want %s", name, p.BaseURL, p.KeyOptional, url)
		}
	}
}

func TestPresetEnvironment(t *testing.T) {
	p, _ := PresetByName("ollama")
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := p.ResolvedBaseURL(getenv); got != p.BaseURL {
		t.Errorf("unset override gave %s", got)
	}
	env["OLLAMA_BASE_URL"] = "http://10.0.0.2:11434/"
	if got := p.ResolvedBaseURL(getenv); got != "http://10.0.0.2:11434/v1" {
		t.Errorf("server-root override gave %s", got)
	}
	env["OLLAMA_BASE_URL"] = "https://proxy.example/ollama/v1"
	if got := p.ResolvedBaseURL(getenv); got != "https://proxy.example/ollama/v1" {
		t.Errorf("override with a path gave %s", got)
	}
	if p.APIKey(getenv) != "" {
		t.Error("APIKey without variables is not empty")
	}
	env["OLLAMA_API_KEY"] = " k1 "
	if got := p.APIKey(getenv); got != "k1" {
		t.Errorf("APIKey = %q", got)
	}
	if p.APIKey(nil) != "" || p.ResolvedBaseURL(nil) != p.BaseURL {
		t.Error("a nil lookup read something")
	}
}

func TestCompatFor(t *testing.T) {
	if c := CompatFor(&ai.Model{Provider: "openai"}); c.MaxTokensField != "max_completion_tokens" || !c.SupportsDeveloperRole {
		t.Errorf("openai compat = %+v", c)
	}
	if c := CompatFor(&ai.Model{Provider: "mistral"}); c.SupportsUsageInStreaming || c.ToolCallIDFormat != "mistral" {
		t.Errorf("mistral compat = %+v", c)
	}
	c := CompatFor(&ai.Model{Provider: "my-proxy", Compat: map[string]any{
		"maxTokensField": "max_completion_tokens", "supportsUsageInStreaming": false, "reasoningObject": true, "supportsStore": "yes",
	}})
	if c.MaxTokensField != "max_completion_tokens" || c.SupportsUsageInStreaming || !c.ReasoningObject || c.SupportsStore {
		t.Errorf("overridden compat = %+v", c)
	}
}

func TestNormalizeToolCallID(t *testing.T) {
	if got := normalizeToolCallID("call_1|fc_1", Compat{}); got != "call_1" {
		t.Errorf("responses id → %q", got)
	}
	long := strings.Repeat("x", 50)
	if got := normalizeToolCallID(long, Compat{}); len(got) != 40 {
		t.Errorf("long id kept %d chars", len(got))
	}
	m := Compat{ToolCallIDFormat: "mistral"}
	a, b := normalizeToolCallID("toolu_01ABC", m), normalizeToolCallID("toolu_01ABC", m)
	if a != b || !regexp.MustCompile(`^[a-zA-Z0-9]{9}$`).MatchString(a) {
		t.Errorf("mistral ids %q, %q", a, b)
	}
	if got := normalizeToolCallID("abcDEF123", m); got != "abcDEF123" {
		t.Errorf("valid mistral id changed to %q", got)
	}
}

// presetModel is a model of a compatible provider pointing at base.
func presetModel(provider, base string) *ai.Model {
	return &ai.Model{ID: "m", API: ai.APIOpenAICompletions, Provider: provider, BaseURL: base + "/v1", Reasoning: true, MaxTokens: 100}
}

func TestMistralRequestShape(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	req := &ai.Request{Model: presetModel("mistral", srv.URL()), APIKey: "secret", SystemPrompt: "sys", Thinking: ai.ThinkingHigh,
		Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	if final.StopReason != ai.StopReasonStop || final.Text() != "ok" {
		t.Fatalf("final = %+v", final)
	}
	r := srv.Requests()[0]
	body := r.JSON()
	if r.Header.Get("Authorization") != "Bearer secret" {
		t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
	}
	if _, ok := body["stream_options"]; ok {
		t.Error("stream_options sent to a server that rejects it")
	}
	if body["max_tokens"] != float64(100) || body["store"] != nil || body["reasoning_effort"] != nil {
		t.Errorf("body = %v", body)
	}
	msgs := body["messages"].([]any)
	if msgs[0].(map[string]any)["role"] != "system" {
		t.Errorf("system prompt sent as %v", msgs[0])
	}
}

func TestReasoningFieldVariants(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		srv := mockllm.New(t).Script(mockllm.Turn{
			Blocks:         []mockllm.Block{mockllm.Thinking("step one", ""), mockllm.Text("done")},
			ReasoningField: field,
		})
		req := &ai.Request{Model: presetModel("openrouter", srv.URL()), Thinking: ai.ThinkingLow,
			Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
		_, final := New(nil).Stream(context.Background(), req).Collect()
		if len(final.Content) != 2 {
			t.Fatalf("%s: content = %+v", field, final.Content)
		}
		if th, ok := final.Content[0].(*ai.ThinkingContent); !ok || th.Thinking != "step one" {
			t.Errorf("%s: first block = %+v", field, final.Content[0])
		}
		if eff := srv.Requests()[0].JSON()["reasoning"]; eff == nil {
			t.Errorf("openrouter request has no reasoning object")
		}
	}
}

// rawServer answers every request with body as an SSE stream.
func rawServer(t *testing.T, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestWholeToolCallInOneChunkAndNoDone(t *testing.T) {
	// Ollama-style: the call arrives complete, and the stream ends without [DONE].
	base := rawServer(t, `data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]}}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"prompt_cache_hit_tokens":4}}

`)
	req := &ai.Request{Model: presetModel("ollama", base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	calls := final.ToolCalls()
	if final.StopReason != ai.StopReasonToolUse || len(calls) != 1 || calls[0].Arguments["path"] != "a" {
		t.Fatalf("final = %+v", final)
	}
	if final.Usage.Input != 6 || final.Usage.CacheRead != 4 || final.Usage.Output != 3 {
		t.Errorf("usage = %+v", final.Usage)
	}
}

func TestStreamEndingEarlyIsAnError(t *testing.T) {
	base := rawServer(t, `data: {"choices":[{"index":0,"delta":{"content":"hal"}}]}

`)
	req := &ai.Request{Model: presetModel("vllm", base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	if final.StopReason != ai.StopReasonError || final.ErrorMessage != ai.ErrStreamEnded.Error() {
		t.Fatalf("final = %+v", final)
	}
	if final.Text() != "hal" {
		t.Errorf("partial text lost: %q", final.Text())
	}
}

func TestRegisteredForItsAPI(t *testing.T) {
	p, err := ai.NewProvider(ai.APIOpenAICompletions, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*Provider); !ok || p.API() != ai.APIOpenAICompletions {
		t.Errorf("registry built %T", p)
	}
}

func TestToolResultImagesFollowAsUserMessage(t *testing.T) {
	m := &ai.Model{ID: "m", Provider: "openai", Input: []string{ai.InputText, ai.InputImage}}
	msgs := convertMessages(&ai.Request{Model: m, Messages: []ai.Message{
		&ai.AssistantMessage{Content: ai.ContentList{&ai.ToolCall{ID: "c1", Name: "shot"}, &ai.ToolCall{ID: "c2", Name: "ls"}}},
		&ai.ToolResultMessage{ToolCallID: "c1", Content: ai.ContentList{&ai.ImageContent{Data: "AA==", MIMEType: "image/png"}}},
		&ai.ToolResultMessage{ToolCallID: "c2", Content: ai.ContentList{ai.Text("a.go")}},
		&ai.AssistantMessage{StopReason: ai.StopReasonError},
	}}, openAICompat)
	if len(msgs) != 4 {
		t.Fatalf("messages = %+v", msgs)
	}
	if msgs[1].Role != "tool" || msgs[1].Content != "(no output)" || msgs[2].Role != "tool" {
		t.Errorf("tool messages = %+v, %+v", msgs[1], msgs[2])
	}
	parts, ok := msgs[3].Content.([]part)
	if msgs[3].Role != "user" || !ok || len(parts) != 2 || parts[1].ImageURL == nil || parts[1].ImageURL.URL != "data:image/png;base64,AA==" {
		t.Errorf("image message = %+v", msgs[3])
	}
}

func TestPromptCacheFieldsOnlyForOpenAI(t *testing.T) {
	req := &ai.Request{Model: &ai.Model{ID: "m", Provider: "openai"}, SessionID: "s1", Cache: ai.CacheLong}
	p := buildPayload(req, CompatFor(req.Model))
	if p["prompt_cache_key"] != "s1" || p["prompt_cache_retention"] != "24h" {
		t.Errorf("openai payload = %v", p)
	}
	req.Model.Provider = "groq"
	p = buildPayload(req, CompatFor(req.Model))
	if _, ok := p["prompt_cache_key"]; ok {
		t.Errorf("groq payload has prompt_cache_key: %v", p)
	}
}

func TestGroqUsage(t *testing.T) {
	base := rawServer(t, `data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}],"x_groq":{"usage":{"prompt_tokens":7,"completion_tokens":2}}}

data: [DONE]

`)
	req := &ai.Request{Model: presetModel("groq", base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}}
	_, final := New(nil).Stream(context.Background(), req).Collect()
	if final.Usage.Input != 7 || final.Usage.Output != 2 || final.StopReason != ai.StopReasonStop {
		t.Errorf("final = %+v", final)
	}
}
