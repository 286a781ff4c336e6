package bedrock

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// captured is one request as the server saw it, with the escaped path and
// host the signature covers.
type captured struct {
	Method, Host, EscapedPath string
	Header                    http.Header
	Body                      []byte
}

// recorder serves turns through mockllm and keeps each raw request.
type recorder struct {
	mock *mockllm.Server
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []captured
}

func newRecorder(t *testing.T, turns ...mockllm.Turn) *recorder {
	return startRecorder(t, httptest.NewServer, turns)
}

// newTLSRecorder is a recorder over HTTPS, which bearer tokens require;
// its srv.Client() trusts it.
func newTLSRecorder(t *testing.T, turns ...mockllm.Turn) *recorder {
	return startRecorder(t, httptest.NewTLSServer, turns)
}

func startRecorder(t *testing.T, start func(http.Handler) *httptest.Server, turns []mockllm.Turn) *recorder {
	r := &recorder{mock: mockllm.NewHandler().Script(turns...)}
	r.srv = start(http.HandlerFunc(func(w http.ResponseWriter, hr *http.Request) {
		body, _ := io.ReadAll(hr.Body)
		r.mu.Lock()
		r.reqs = append(r.reqs, captured{hr.Method, hr.Host, hr.URL.EscapedPath(), hr.Header.Clone(), body})
		r.mu.Unlock()
		hr.Body = io.NopCloser(bytes.NewReader(body))
		r.mock.ServeHTTP(w, hr)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) last(t *testing.T) captured {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) == 0 {
		t.Fatal("no request reached the server")
	}
	return r.reqs[len(r.reqs)-1]
}

// body decodes the last request's JSON body.
func (r *recorder) body(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.last(t).Body, &m); err != nil {
		t.Fatalf("body is not JSON: %v", err)
	}
	return m
}

// run streams req with env through a fresh provider and returns the final
// message.
func run(t *testing.T, env func(string) string, req *ai.Request) *ai.AssistantMessage {
	t.Helper()
	return runWith(t, nil, env, req)
}

// runWith is run with an HTTP client (nil: the default).
func runWith(t *testing.T, client *http.Client, env func(string) string, req *ai.Request) *ai.AssistantMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return NewWithEnv(client, env).Stream(ctx, req).Result(ctx)
}

func simpleRequest(base string) *ai.Request {
	return &ai.Request{Model: testModel(base), Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}}, MaxTokens: 1000}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The signature the server receives is the SigV4 signature of exactly
// what it received, recomputed here with the test key; a payload the
// before_provider_request hook replaced is what gets signed.
func TestSigV4SignatureVerifies(t *testing.T) {
	rec := newRecorder(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	req := simpleRequest(rec.srv.URL)
	req.OnRequest = func(_ context.Context, p *ai.ProviderRequest) error {
		p.Payload = append(bytes.TrimSuffix(p.Payload, []byte("}")), []byte(`,"requestMetadata":{"hook":"yes"}}`)...)
		return nil
	}
	if m := run(t, testEnv(nil), req); m.StopReason != ai.StopReasonStop {
		t.Fatalf("request failed: %s", m.ErrorMessage)
	}
	got := rec.last(t)
	if !bytes.Contains(got.Body, []byte(`"hook":"yes"`)) {
		t.Fatalf("the hook's payload was not sent: %s", got.Body)
	}
	auth := got.Header.Get("Authorization")
	_, signed, ok := strings.Cut(auth, "SignedHeaders=")
	if !ok {
		t.Fatalf("Authorization %q", auth)
	}
	signed, _, _ = strings.Cut(signed, ",")
	hr, err := http.NewRequest(got.Method, "http://"+got.Host+got.EscapedPath, bytes.NewReader(got.Body))
	if err != nil {
		t.Fatal(err)
	}
	hr.URL.RawPath = got.EscapedPath
	for _, h := range strings.Split(signed, ";") {
		if h != "host" {
			hr.Header.Set(h, got.Header.Get(h))
		}
	}
	when, err := time.Parse("20060102T150405Z", got.Header.Get("X-Amz-Date"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(got.Body)
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, hr, hex.EncodeToString(sum[:]), "bedrock", "us-west-2", when); err != nil {
		t.Fatal(err)
	}
	if want := hr.Header.Get("Authorization"); want != auth {
		t.Errorf("signature does not verify:\n got  %s\n want %s", auth, want)
	}
}

// A Bedrock API key goes out as a bearer token instead of a signature:
// from AWS_BEARER_TOKEN_BEDROCK, or the request's key (stored login,
// --api-key), which wins.
func TestBearerToken(t *testing.T) {
	rec := newTLSRecorder(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("a")}}, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("b")}})
	env := testEnv(map[string]string{"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_BEARER_TOKEN_BEDROCK": "env-token"})
	if m := runWith(t, rec.srv.Client(), env, simpleRequest(rec.srv.URL)); m.StopReason != ai.StopReasonStop {
		t.Fatalf("request failed: %s", m.ErrorMessage)
	}
	if got := rec.last(t).Header.Get("Authorization"); got != "Bearer env-token" {
		t.Errorf("Authorization %q, want the env token", got)
	}
	req := simpleRequest(rec.srv.URL)
	req.APIKey = "stored-key"
	runWith(t, rec.srv.Client(), env, req)
	plain := newRecorder(t)
	if m := run(t, env, simpleRequest(plain.srv.URL)); !strings.Contains(m.ErrorMessage, "only sent over HTTPS") || len(plain.reqs) != 0 {
		t.Errorf("bearer over plain HTTP: %q", m.ErrorMessage)
	}
	if got := rec.last(t).Header.Get("Authorization"); got != "Bearer stored-key" {
		t.Errorf("Authorization %q, want the request's key", got)
	}
}

// A profile named by AWS_PROFILE supplies keys and, without AWS_REGION,
// the region; a profile that does not exist is a one-line error.
func TestProfileCredentialsAndRegion(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config")
	creds := filepath.Join(dir, "credentials")
	os.WriteFile(config, []byte("[profile dev]\nregion = eu-central-1\n"), 0o600)
	os.WriteFile(creds, []byte("[dev]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = secretprofile\n"), 0o600)
	env := testEnv(map[string]string{"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_REGION": "",
		"AWS_PROFILE": "dev", "AWS_CONFIG_FILE": config, "AWS_SHARED_CREDENTIALS_FILE": creds})
	rec := newRecorder(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	if m := run(t, env, simpleRequest(rec.srv.URL)); m.StopReason != ai.StopReasonStop {
		t.Fatalf("request failed: %s", m.ErrorMessage)
	}
	if got := rec.last(t).Header.Get("Authorization"); !strings.Contains(got, "Credential=AKIDPROFILE/") || !strings.Contains(got, "/eu-central-1/bedrock/") {
		t.Errorf("Authorization %q, want the profile's key and region", got)
	}
	missing := testEnv(map[string]string{"AWS_PROFILE": "nope", "AWS_CONFIG_FILE": config, "AWS_SHARED_CREDENTIALS_FILE": creds})
	m := run(t, missing, simpleRequest(rec.srv.URL))
	if m.StopReason != ai.StopReasonError || !strings.Contains(m.ErrorMessage, `AWS profile "nope"`) || strings.Contains(m.ErrorMessage, "\n") {
		t.Errorf("missing profile: %q", m.ErrorMessage)
	}
}

// Without any credentials the request fails before it is sent, naming
// the variables to set.
func TestNoCredentials(t *testing.T) {
	rec := newRecorder(t)
	env := testEnv(map[string]string{"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""})
	m := run(t, env, simpleRequest(rec.srv.URL))
	if m.StopReason != ai.StopReasonError || !strings.Contains(m.ErrorMessage, "AWS_PROFILE") || !strings.Contains(m.ErrorMessage, "AWS_BEARER_TOKEN_BEDROCK") {
		t.Errorf("no credentials: %q", m.ErrorMessage)
	}
	if len(rec.reqs) != 0 {
		t.Errorf("an unsigned request was sent")
	}
}

// A model the region does not offer is one line naming model, region and
// the fix; it is neither retried nor taken for a context overflow.
func TestModelNotInRegion(t *testing.T) {
	for _, turn := range []mockllm.Turn{
		{Status: 400, ErrorMessage: "The provided model identifier is invalid."},
		{Status: 404, ErrorMessage: "Could not resolve the foundation model from the provided model identifier."},
		{Status: 403, ErrorMessage: "You don't have access to the model with the specified model ID."},
	} {
		rec := newRecorder(t, turn)
		m := run(t, testEnv(nil), simpleRequest(rec.srv.URL))
		for _, want := range []string{testModelID, "us-west-2", "AWS_REGION", "Model access", `"us.` + testModelID + `"`} {
			if !strings.Contains(m.ErrorMessage, want) {
				t.Errorf("%d: %q lacks %q", turn.Status, m.ErrorMessage, want)
			}
		}
		if strings.Contains(m.ErrorMessage, "\n") || ai.IsRetryable(m) || ai.IsContextOverflow(m, 0) {
			t.Errorf("%d: %q is multi-line, retryable or an overflow", turn.Status, m.ErrorMessage)
		}
	}
}

// Throttling, refused or in the stream, is retryable and never an overflow
// (Bedrock says "Too many tokens" when throttling); a prompt that is too
// long is an overflow.
func TestThrottlingAndOverflow(t *testing.T) {
	rec := newRecorder(t, mockllm.Turn{Status: 429, ErrorMessage: "Too many tokens, please wait before trying again."})
	m := run(t, testEnv(nil), simpleRequest(rec.srv.URL))
	if !ai.IsRetryable(m) || ai.IsContextOverflow(m, 0) || !strings.Contains(m.ErrorMessage, "ThrottlingException") {
		t.Errorf("HTTP throttling: %q", m.ErrorMessage)
	}

	enc := eventstream.NewEncoder()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		msg := func(kind, typeHeader, name, payload string) {
			var h eventstream.Headers
			h.Set(":message-type", eventstream.StringValue(kind))
			h.Set(typeHeader, eventstream.StringValue(name))
			h.Set(":content-type", eventstream.StringValue("application/json"))
			enc.Encode(w, eventstream.Message{Headers: h, Payload: []byte(payload)})
		}
		msg("event", ":event-type", "messageStart", `{"role":"assistant"}`)
		msg("event", ":event-type", "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Hel"}}`)
		msg("exception", ":exception-type", "throttlingException", `{"message":"Too many tokens, please wait before trying again."}`)
	}))
	defer srv.Close()
	m = run(t, testEnv(nil), simpleRequest(srv.URL))
	if m.StopReason != ai.StopReasonError || !ai.IsRetryable(m) || ai.IsContextOverflow(m, 0) {
		t.Errorf("stream throttling: %q", m.ErrorMessage)
	}

	rec = newRecorder(t, mockllm.Turn{Status: 400, ErrorMessage: "Input is too long for requested model."})
	m = run(t, testEnv(nil), simpleRequest(rec.srv.URL))
	if !ai.IsContextOverflow(m, 0) || ai.IsRetryable(m) {
		t.Errorf("overflow: %q", m.ErrorMessage)
	}
}

// Thinking: a budget for Claude 4.5 (max tokens raised to fit it), an
// effort for Opus 4.6 (xhigh is "max"), nothing with a forced tool or for
// a model without reasoning; temperature only without thinking.
func TestThinkingFields(t *testing.T) {
	temp := 0.5
	cases := []struct {
		name   string
		id     string
		level  ai.ThinkingLevel
		choice *ai.ToolChoice
		fields string // additionalModelRequestFields, "" for none
		max    float64
		temp   bool
	}{
		{"budget", testModelID, ai.ThinkingHigh, nil, `{"thinking":{"budget_tokens":16384,"type":"enabled"}}`, 17408, false},
		{"xhigh-budget", testModelID, ai.ThinkingXHigh, nil, `{"thinking":{"budget_tokens":16384,"type":"enabled"}}`, 17408, false},
		{"low-fits", testModelID, ai.ThinkingMinimal, nil, `{"thinking":{"budget_tokens":1024,"type":"enabled"}}`, 2048, false},
		{"adaptive", "global.anthropic.claude-opus-4-6-v1", ai.ThinkingXHigh, nil, `{"output_config":{"effort":"max"},"thinking":{"type":"adaptive"}}`, 1000, false},
		{"adaptive-low", "anthropic.claude-opus-4-7", ai.ThinkingMinimal, nil, `{"output_config":{"effort":"low"},"thinking":{"type":"adaptive"}}`, 1000, false},
		{"forced-tool", testModelID, ai.ThinkingHigh, &ai.ToolChoice{Mode: ai.ToolChoiceTool, Name: "read"}, "", 1000, true},
		{"off", testModelID, ai.ThinkingOff, nil, "", 1000, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := newRecorder(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
			req := simpleRequest(rec.srv.URL)
			req.Model.ID = c.id
			req.MaxTokens = 1000
			if c.name == "low-fits" {
				req.MaxTokens = 1024
			}
			req.Thinking, req.ToolChoice, req.Temperature = c.level, c.choice, &temp
			req.Tools = []ai.Tool{{Name: "read", Description: "Read.", Parameters: json.RawMessage(`{"type":"object"}`)}}
			run(t, testEnv(nil), req)
			body := rec.body(t)
			got := ""
			if f, ok := body["additionalModelRequestFields"]; ok {
				got = jsonOf(t, f)
			}
			if got != c.fields {
				t.Errorf("fields %s, want %s", got, c.fields)
			}
			inf := body["inferenceConfig"].(map[string]any)
			if inf["maxTokens"] != c.max {
				t.Errorf("maxTokens %v, want %v", inf["maxTokens"], c.max)
			}
			if _, has := inf["temperature"]; has != c.temp {
				t.Errorf("temperature sent: %v, want %v", has, c.temp)
			}
		})
	}
}

// Tool choice: required is "any", a named tool is "tool"; "none" leaves
// the tools out unless the conversation holds tool blocks, which Bedrock
// only accepts with a tool configuration.
func TestToolChoice(t *testing.T) {
	tools := []ai.Tool{{Name: "read", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
	history := []ai.Message{
		&ai.UserMessage{Content: ai.ContentList{ai.Text("go")}},
		&ai.AssistantMessage{Content: ai.ContentList{&ai.ToolCall{ID: "t1", Name: "read", Arguments: map[string]any{"path": "a"}}}, Provider: "amazon-bedrock", Model: testModelID, StopReason: ai.StopReasonToolUse},
		&ai.ToolResultMessage{ToolCallID: "t1", ToolName: "read", Content: ai.ContentList{ai.Text("x")}},
	}
	cases := []struct {
		name   string
		choice *ai.ToolChoice
		msgs   []ai.Message
		want   string // toolChoice JSON, "-" for no toolConfig
	}{
		{"default", nil, nil, `null`},
		{"auto", &ai.ToolChoice{Mode: ai.ToolChoiceAuto}, nil, `{"auto":{}}`},
		{"required", &ai.ToolChoice{Mode: ai.ToolChoiceRequired}, nil, `{"any":{}}`},
		{"named", &ai.ToolChoice{Mode: ai.ToolChoiceTool, Name: "read"}, nil, `{"tool":{"name":"read"}}`},
		{"none", &ai.ToolChoice{Mode: ai.ToolChoiceNone}, nil, "-"},
		{"none-with-history", &ai.ToolChoice{Mode: ai.ToolChoiceNone}, history, `null`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := newRecorder(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
			req := simpleRequest(rec.srv.URL)
			req.Tools, req.ToolChoice = tools, c.choice
			if c.msgs != nil {
				req.Messages = c.msgs
			}
			run(t, testEnv(nil), req)
			tc, ok := rec.body(t)["toolConfig"].(map[string]any)
			got := "-"
			if ok {
				got = jsonOf(t, tc["toolChoice"])
			}
			if got != c.want {
				t.Errorf("toolChoice %s, want %s", got, c.want)
			}
		})
	}
}

// The conversation: images as bytes (also in tool results), a model
// without images gets a note, consecutive results share one user turn,
// unanswered calls get an error result, thinking of a failed turn or
// another model is not replayed as signed reasoning, and a non-Claude
// model gets its reasoning back unsigned.
func TestConvertMessages(t *testing.T) {
	png := &ai.ImageContent{Data: "iVBORw0KGgo=", MIMEType: "image/png"}
	msgs := []ai.Message{
		&ai.UserMessage{Content: ai.ContentList{ai.Text("look"), png}},
		&ai.AssistantMessage{Content: ai.ContentList{
			&ai.ThinkingContent{Thinking: "cut short", ThinkingSignature: "sig"}, ai.Text("half"),
		}, Provider: "amazon-bedrock", Model: testModelID, StopReason: ai.StopReasonError},
		&ai.AssistantMessage{Content: ai.ContentList{
			&ai.ThinkingContent{Thinking: "foreign", ThinkingSignature: "x"},
			&ai.ToolCall{ID: "call_1|fc_1", Name: "read", Arguments: map[string]any{"path": "a"}},
			&ai.ToolCall{ID: "call_2", Name: "ls"},
			&ai.ToolCall{ID: "call_3", Name: "shot"},
		}, Provider: "openai", Model: "gpt-5", StopReason: ai.StopReasonToolUse},
		&ai.ToolResultMessage{ToolCallID: "call_1|fc_1", Content: ai.ContentList{ai.Text("data")}},
		&ai.ToolResultMessage{ToolCallID: "call_3", Content: ai.ContentList{png}, IsError: true},
		&ai.ToolResultMessage{ToolCallID: "ghost", Content: ai.ContentList{ai.Text("orphan")}},
		&ai.UserMessage{Content: ai.ContentList{ai.Text("next")}},
	}
	m := testModel("http://x")
	got, err := convertMessages(msgs, m)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"user","content":[{"text":"look"},{"image":{"bytes":"iVBORw0KGgo=","format":"png"}}]},` +
		`{"role":"assistant","content":[{"text":"[Thinking]: cut short"},{"text":"half"}]},` +
		`{"role":"assistant","content":[{"text":"foreign"},{"toolUse":"call_1_fc_1 read"},{"toolUse":"call_2 ls"},{"toolUse":"call_3 shot"}]},` +
		`{"role":"user","content":[{"toolResult":"call_1_fc_1 success [text:data]"},{"toolResult":"call_3 error [image:png]"},{"toolResult":"call_2 error [text:No result provided]"},{"text":"next"}]}]`
	if s := renderMessages(got); s != want {
		t.Errorf("got\n%s\nwant\n%s", s, want)
	}

	// Claude without a signature: kept as marked text; another model:
	// reasoning without the signature field.
	own := []ai.Message{&ai.AssistantMessage{Content: ai.ContentList{&ai.ThinkingContent{Thinking: "plan"}}, Provider: "amazon-bedrock", Model: testModelID}}
	got, _ = convertMessages(own, m)
	if s := renderMessages(got); !strings.Contains(s, `{"text":"[Thinking]: plan"}`) {
		t.Errorf("unsigned Claude thinking: %s", s)
	}
	nova := &ai.Model{ID: "amazon.nova-pro-v1:0", Provider: "amazon-bedrock"}
	own = []ai.Message{&ai.AssistantMessage{Content: ai.ContentList{&ai.ThinkingContent{Thinking: "plan", ThinkingSignature: "s"}}, Provider: "amazon-bedrock", Model: nova.ID}}
	got, _ = convertMessages(own, nova)
	if s := renderMessages(got); !strings.Contains(s, `{"reasoning":"plan"}`) {
		t.Errorf("non-Claude reasoning: %s", s)
	}
	// A model without image input gets a note; an unknown image type is
	// an error naming the supported ones.
	noImg := &ai.Model{ID: "meta.llama3", Provider: "amazon-bedrock", Input: []string{ai.InputText}}
	got, _ = convertMessages(msgs[:1], noImg)
	if s := renderMessages(got); !strings.Contains(s, "image omitted") {
		t.Errorf("text-only model: %s", s)
	}
	bad := []ai.Message{&ai.UserMessage{Content: ai.ContentList{&ai.ImageContent{Data: "AA==", MIMEType: "image/tiff"}}}}
	if _, err := convertMessages(bad, m); err == nil || !strings.Contains(err.Error(), "PNG") {
		t.Errorf("tiff: %v", err)
	}
}

func TestMapStopReason(t *testing.T) {
	for in, want := range map[string]ai.StopReason{
		"end_turn": ai.StopReasonStop, "stop_sequence": ai.StopReasonStop,
		"max_tokens": ai.StopReasonLength, "model_context_window_exceeded": ai.StopReasonLength,
		"tool_use": ai.StopReasonToolUse, "guardrail_intervened": ai.StopReasonError,
		"content_filtered": ai.StopReasonError, "malformed_tool_use": ai.StopReasonError, "new_reason": ai.StopReasonError,
	} {
		got, msg := MapStopReason(in)
		if got != want || (got == ai.StopReasonError) != (msg != "") {
			t.Errorf("%s → %s %q, want %s", in, got, msg, want)
		}
	}
}

// Public regional endpoints follow the configured region; any other base
// URL (a proxy, a test server) is used as given.
func TestRegionalEndpoint(t *testing.T) {
	for in, want := range map[string]bool{
		"https://bedrock-runtime.us-east-1.amazonaws.com":       true,
		"https://bedrock-runtime.eu-west-3.amazonaws.com/":      true,
		"https://bedrock-runtime-fips.us-west-2.amazonaws.com":  true,
		"https://bedrock-runtime.cn-north-1.amazonaws.com.cn":   true,
		"https://proxy.example.com/bedrock":                     false,
		"http://127.0.0.1:8080":                                 false,
		"https://bedrock-runtime.us-east-1.amazonaws.com/proxy": false,
	} {
		if got := isRegionalEndpoint(in); got != want {
			t.Errorf("%s: %v, want %v", in, got, want)
		}
	}
}

// renderMessages renders converted messages compactly for comparison.
func renderMessages(msgs []message) string {
	type msg struct {
		Role    string           `json:"role"`
		Content []map[string]any `json:"content"`
	}
	part := func(c toolResultContent) string {
		switch {
		case c.Text != nil:
			return "text:" + *c.Text
		case c.Image != nil:
			return "image:" + c.Image.Format
		}
		return "?"
	}
	var out []msg
	for _, m := range msgs {
		r := msg{Role: m.Role}
		for _, b := range m.Content {
			switch {
			case b.Text != nil:
				r.Content = append(r.Content, map[string]any{"text": *b.Text})
			case b.Image != nil:
				r.Content = append(r.Content, map[string]any{"image": map[string]any{"format": b.Image.Format, "bytes": base64.StdEncoding.EncodeToString(b.Image.Source.Bytes)}})
			case b.ToolUse != nil:
				r.Content = append(r.Content, map[string]any{"toolUse": b.ToolUse.ToolUseID + " " + b.ToolUse.Name})
			case b.ToolResult != nil:
				var parts []string
				for _, c := range b.ToolResult.Content {
					parts = append(parts, part(c))
				}
				r.Content = append(r.Content, map[string]any{"toolResult": b.ToolResult.ToolUseID + " " + b.ToolResult.Status + " [" + strings.Join(parts, ",") + "]"})
			case b.ReasoningContent != nil && b.ReasoningContent.ReasoningText != nil:
				rt := b.ReasoningContent.ReasoningText
				e := map[string]any{"reasoning": rt.Text}
				if rt.Signature != "" {
					e["signature"] = rt.Signature
				}
				r.Content = append(r.Content, e)
			case b.ReasoningContent != nil:
				r.Content = append(r.Content, map[string]any{"redacted": base64.StdEncoding.EncodeToString(b.ReasoningContent.RedactedContent)})
			case b.CachePoint != nil:
				r.Content = append(r.Content, map[string]any{"cachePoint": true})
			}
		}
		out = append(out, r)
	}
	data, _ := json.Marshal(out)
	return string(data)
}

// The session (configuration and credentials cache) is loaded once per
// environment and shared by concurrent requests; a changed environment
// loads a new one.
func TestSessionReuse(t *testing.T) {
	p := NewWithEnv(nil, testEnv(nil))
	s := readSettings(testEnv(nil))
	var wg sync.WaitGroup
	got := make([]*session, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = p.session(context.Background(), s)
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g == nil || g != got[0] {
			t.Fatalf("sessions %v, want one shared", got)
		}
	}
	other, err := p.session(context.Background(), readSettings(testEnv(map[string]string{"AWS_REGION": "eu-west-1"})))
	if err != nil || other == got[0] || other.region != "eu-west-1" {
		t.Errorf("changed region: %v, %v", other, err)
	}
}

// The watchdogs of ai.Send guard Bedrock's requests: a server that never
// answers, or stops in the middle of the event stream, fails the request
// with a stall instead of hanging.
func TestStalls(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "silent") {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		w.Write(eventStream("messageStart", `{"role":"assistant"}`, "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Hel"}}`))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	req := simpleRequest(srv.URL)
	req.Model.ID = "silent"
	req.FirstEventTimeout, req.IdleTimeout = 100*time.Millisecond, 100*time.Millisecond
	m := run(t, testEnv(nil), req)
	if m.StopReason != ai.StopReasonError || !strings.Contains(m.ErrorMessage, "did not start answering") || !ai.IsRetryable(m) {
		t.Errorf("silent server: %q", m.ErrorMessage)
	}
	req = simpleRequest(srv.URL)
	req.FirstEventTimeout, req.IdleTimeout = 100*time.Millisecond, 100*time.Millisecond
	m = run(t, testEnv(nil), req)
	if m.StopReason != ai.StopReasonError || !strings.Contains(m.ErrorMessage, "stream stalled") || len(m.Content) != 1 {
		t.Errorf("stalled stream: %q, content %v", m.ErrorMessage, m.Content)
	}
}

func TestInferenceProfile(t *testing.T) {
	for _, c := range [][3]string{
		{"anthropic.claude-x-v1:0", "us-east-1", "us.anthropic.claude-x-v1:0"},
		{"anthropic.claude-x-v1:0", "eu-central-1", "eu.anthropic.claude-x-v1:0"},
		{"anthropic.claude-x-v1:0", "ap-northeast-1", "apac.anthropic.claude-x-v1:0"},
		{"anthropic.claude-x-v1:0", "sa-east-1", "global.anthropic.claude-x-v1:0"},
		{"eu.anthropic.claude-x-v1:0", "us-east-1", ""},
		{"arn:aws:bedrock:us-east-1:1:application-inference-profile/x", "us-east-1", ""},
	} {
		if got := inferenceProfile(c[0], c[1]); got != c[2] {
			t.Errorf("%s in %s: %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// A model stream error is retried when the model itself answered with a
// rate limit or a server error, not when it refused the input.
func TestModelStreamErrorRetry(t *testing.T) {
	for code, retry := range map[int]bool{429: true, 529: true, 500: true, 400: false} {
		status := code
		err := streamError(&streamException{Kind: "modelStreamErrorException", Payload: exceptionPayload{Message: "failed", OriginalStatusCode: &status}})
		m := &ai.AssistantMessage{StopReason: ai.StopReasonError, ErrorMessage: ai.FormatError(err)}
		if ai.IsRetryable(m) != retry {
			t.Errorf("status %d: %q retryable %v, want %v", code, m.ErrorMessage, ai.IsRetryable(m), retry)
		}
	}
}

// Two streams at once on one provider (parallel subagents) each get their
// own answer; under -race this also checks that they share no decoder
// state (each request has its own event-stream decoder).
func TestConcurrentStreams(t *testing.T) {
	turn := func(s string) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text(s)}, ChunkSize: 2, ChunkDelay: time.Millisecond, Match: s}
	}
	srv := mockllm.New(t).Script(turn("first answer"), turn("second answer"))
	p := NewWithEnv(nil, testEnv(nil))
	var wg sync.WaitGroup
	got := make([]string, 2)
	for i, want := range []string{"first answer", "second answer"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := simpleRequest(srv.URL())
			req.Messages = []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(want)}}}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			m := p.Stream(ctx, req).Result(ctx)
			if m != nil && len(m.Content) == 1 {
				got[i] = m.Content[0].(*ai.TextContent).Text
			}
		}()
	}
	wg.Wait()
	if got[0] != "first answer" || got[1] != "second answer" {
		t.Errorf("answers %q", got)
	}
}
