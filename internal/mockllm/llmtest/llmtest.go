// Package llmtest runs the standard provider scenarios against a scripted
// internal/mockllm server and compares each resulting event sequence with a
// golden file, so every provider package proves the same streaming contract
// with a few lines of test code:
//
//	func TestScenarios(t *testing.T) {
//		llmtest.Run(t, llmtest.Config{
//			Provider: New(nil),
//			Model:    func(base string) *ai.Model { return &ai.Model{…, BaseURL: base + "/v1"} },
//		})
//	}
//
// Scenarios: plain text, thinking + text, one tool call, two parallel tool
// calls, max tokens, a refusal/safety stop, an HTTP 429 with retry-after, a
// stream error event, a mid-stream disconnect, a reply without usage and
// an abort, plus the
// Config.Extra scenarios of the API under test. Goldens live in
// the calling package's testdata/golden/<scenario>.txt and are rewritten
// with `go test -update` (the flag of internal/golden, so a test binary
// that imports this package must not define its own). The request body of the first scenario is kept as
// testdata/golden/request.json, so message conversion is reviewed too.
//
// The throttle may merge consecutive deltas of one block or not, depending
// on timing; the golden form therefore merges every run of consecutive
// deltas with the same type and content index, which is exactly the
// freedom the contract allows. Besides the goldens, every run checks the
// contract's invariants: start first, one terminal event last, blocks
// opened before their deltas and closed at most once, Result equal to the
// terminal message.
package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/golden"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// Config describes the provider under test.
type Config struct {
	Provider ai.Provider
	// Model returns the model to use with the mock's root URL (add the
	// API's base path, e.g. base+"/v1").
	Model func(base string) *ai.Model
	// PriorToolCallID is the id of the tool call in the conversation's
	// earlier assistant turn ("call_prev_1" when empty; OpenAI Responses
	// uses "<call_id>|<item_id>").
	PriorToolCallID string
	// APIKey is the credential every request carries ("" for none), for
	// providers that refuse to send without one.
	APIKey string
	// CheckRequest, when set, runs on every recorded request for
	// provider-specific assertions (auth header, path, query).
	CheckRequest func(t *testing.T, r mockllm.Request)
	// Dir holds the goldens (default "testdata/golden").
	Dir string
	// ContentType is the media type of a streamed answer, as OnResponse
	// sees it ("text/event-stream" when empty; Bedrock's event stream is
	// "application/vnd.amazon.eventstream").
	ContentType string
	// Extra scenarios are played after the standard ones, for cases only
	// this API has (e.g. the Responses API's content-filter stop, which is
	// distinct from its refusal content part).
	Extra []Scenario
}

// Scenario is one scripted situation.
type Scenario struct {
	Name  string
	Turn  mockllm.Turn
	Abort bool // cancel the request once the first text delta arrives
}

// Scenarios are the standard cases every provider must pass.
var Scenarios = []Scenario{
	{Name: "text", Turn: mockllm.Turn{
		Blocks: []mockllm.Block{mockllm.Text("Hello! This is a plain reply from the mock.")},
		Usage:  &mockllm.Usage{Input: 120, Output: 12, CacheRead: 30, CacheWrite: 8},
	}},
	{Name: "thinking-text", Turn: mockllm.Turn{
		Blocks: []mockllm.Block{
			mockllm.Thinking("The user wants a number. 42 fits.", "sig-thinking-1"),
			mockllm.Text("The answer is 42."),
		},
		Usage: &mockllm.Usage{Input: 80, Output: 40, Reasoning: 25},
	}},
	{Name: "tool-call", Turn: mockllm.Turn{
		Blocks: []mockllm.Block{
			mockllm.Text("Reading the file."),
			mockllm.ToolCall("read", `{"path":"main.go","limit":20}`),
		},
	}},
	{Name: "parallel-tool-calls", Turn: mockllm.Turn{
		Blocks: []mockllm.Block{
			mockllm.ToolCall("read", `{"path":"a.go"}`),
			mockllm.ToolCall("grep", `{"pattern":"TODO","glob":"*.go"}`),
		},
	}},
	{Name: "max-tokens", Turn: mockllm.Turn{
		Blocks: []mockllm.Block{mockllm.Text("This reply runs into the output limit and is cu")},
		Stop:   mockllm.StopLength,
	}},
	{Name: "refusal", Turn: mockllm.Turn{
		Blocks: []mockllm.Block{mockllm.Text("I can't help with that.")},
		Stop:   mockllm.StopRefusal,
	}},
	{Name: "http-error", Turn: mockllm.Turn{Status: 429, RetryAfter: "3", ErrorMessage: "Rate limit reached for requests"}},
	{Name: "stream-error", Turn: mockllm.Turn{
		Blocks:       []mockllm.Block{mockllm.Text("Starting an answer")},
		StreamError:  true,
		ErrorMessage: "The upstream model is overloaded",
	}},
	{Name: "disconnect", Turn: mockllm.Turn{
		Blocks:          []mockllm.Block{mockllm.Text("This reply is cut off by a dropped connection somewhere in the middle.")},
		DisconnectAfter: 6,
	}},
	// A server that reports no usage: Done estimates it (usage.estimated).
	{Name: "no-usage", Turn: mockllm.Turn{
		Blocks: []mockllm.Block{
			mockllm.Text("Writing it."),
			mockllm.ToolCall("write", `{"path":"a.go","content":"package a\n"}`),
		},
		NoUsage: true,
	}},
	{Name: "abort", Abort: true, Turn: mockllm.Turn{
		Blocks:           []mockllm.Block{mockllm.Text("Partial answer before the user pressed escape.")},
		ChunkSize:        1000,
		StallAfterDeltas: 1,
	}},
}

// ResponsesContentFilter is the extra scenario of the OpenAI Responses
// family (openai-responses, openai-codex-responses, azure-openai-responses):
// a refusal there is a "refusal" content part of a completed response (the
// standard "refusal" scenario: text, then done stop), while the safety stop
// is status incomplete with reason content_filter, which must end in an
// error.
var ResponsesContentFilter = Scenario{Name: "content-filter", Turn: mockllm.Turn{
	Blocks:  []mockllm.Block{mockllm.Text("Here is how you would start to")},
	RawStop: "content_filter",
}}

// ResponsesOverflow is the Responses family's context-overflow error text,
// for RunOverflow with status 400.
const ResponsesOverflow = "Your input exceeds the context window of this model. Please adjust your input and try again."

// Conversation returns the request used by every scenario: a system prompt,
// a user message with an image, an earlier assistant turn with thinking,
// text and a tool call, its tool result, a follow-up user message, and two
// tools.
func Conversation(model *ai.Model, priorToolCallID string) *ai.Request {
	if priorToolCallID == "" {
		priorToolCallID = "call_prev_1"
	}
	return &ai.Request{
		Model:        model,
		SystemPrompt: "You are a careful test assistant.",
		Messages: []ai.Message{
			&ai.UserMessage{Content: ai.ContentList{
				ai.Text("List the files, then look at this picture."),
				&ai.ImageContent{Data: "iVBORw0KGgo=", MIMEType: "image/png"},
			}, Timestamp: 1},
			&ai.AssistantMessage{
				Content: ai.ContentList{
					&ai.ThinkingContent{Thinking: "I should list the directory.", ThinkingSignature: "sig-prev"},
					ai.Text("Listing."),
					&ai.ToolCall{ID: priorToolCallID, Name: "ls", Arguments: map[string]any{"path": "."}},
				},
				API: model.API, Provider: model.Provider, Model: model.ID,
				StopReason: ai.StopReasonToolUse, Timestamp: 2,
			},
			&ai.ToolResultMessage{ToolCallID: priorToolCallID, ToolName: "ls",
				Content: ai.ContentList{ai.Text("a.go\nb.go")}, Timestamp: 3},
			&ai.UserMessage{Content: ai.ContentList{ai.Text("Now read a.go.")}, Timestamp: 4},
		},
		Tools: []ai.Tool{
			{Name: "read", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}`)},
			{Name: "ls", Description: "List a directory.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
		},
		MaxTokens: 1024,
		Thinking:  ai.ThinkingHigh,
		RequestID: "req_test_1",
	}
}

// Run plays every scenario as a subtest, then checks the hooks.
func Run(t *testing.T, cfg Config) {
	t.Helper()
	defer t.Run("hooks", func(t *testing.T) { RunHooks(t, cfg) })
	if cfg.Dir == "" {
		cfg.Dir = filepath.Join("testdata", "golden")
	}
	all := append(append([]Scenario(nil), Scenarios...), cfg.Extra...)
	for i, sc := range all {
		t.Run(sc.Name, func(t *testing.T) {
			srv := mockllm.New(t).Script(sc.Turn)
			req := Conversation(cfg.Model(srv.URL()), cfg.PriorToolCallID)
			req.APIKey = cfg.APIKey
			got := Play(t, cfg.Provider, req, sc.Abort)
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("provider sent %d requests, want 1", len(reqs))
			}
			if cfg.CheckRequest != nil {
				cfg.CheckRequest(t, reqs[0])
			}
			golden.Check(t, filepath.Join(cfg.Dir, sc.Name+".txt"), got)
			if i == 0 {
				golden.Check(t, filepath.Join(cfg.Dir, "request.json"), PrettyJSON(t, reqs[0].Body))
			}
		})
	}
}

// RunHooks checks the hooks: OnRequest sees the request id and the JSON
// payload and its replacement is what the server receives; OnResponse sees
// the status and headers.
func RunHooks(t *testing.T, cfg Config) {
	t.Helper()
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	req := Conversation(cfg.Model(srv.URL()), cfg.PriorToolCallID)
	req.APIKey = cfg.APIKey
	var sawID string
	var status int
	var header string
	req.OnRequest = func(_ context.Context, p *ai.ProviderRequest) error {
		sawID = p.RequestID
		var body map[string]any
		if err := json.Unmarshal(p.Payload, &body); err != nil {
			return err
		}
		body["x_hook_marker"] = true
		data, err := json.Marshal(body)
		p.Payload = data
		return err
	}
	req.OnResponse = func(_ context.Context, r *ai.ProviderResponse) {
		status = r.Status
		header = r.Headers.Get("Content-Type")
	}
	Play(t, cfg.Provider, req, false)
	if sawID != "req_test_1" {
		t.Errorf("OnRequest saw request id %q, want req_test_1", sawID)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].JSON()["x_hook_marker"] != true {
		t.Errorf("the payload replaced by OnRequest did not reach the server")
	}
	wantType := cfg.ContentType
	if wantType == "" {
		wantType = "text/event-stream"
	}
	if status != 200 || header != wantType {
		t.Errorf("OnResponse saw status %d, content type %q", status, header)
	}
}

// Play streams req with p, checks the contract's invariants and returns
// the golden text. With abort, the request is cancelled as soon as the
// first text delta arrives.
func Play(t *testing.T, p ai.Provider, req *ai.Request, abort bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	reqCtx, abortReq := context.WithCancel(ctx)
	defer abortReq()
	stream := p.Stream(reqCtx, req)
	var evs []ai.Event
	for {
		ev, ok := stream.Next(ctx)
		if !ok {
			break
		}
		evs = append(evs, ev)
		if abort && ev.Type == ai.EventTextDelta {
			abortReq()
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("stream did not end within the timeout; events so far:\n%s", Render(evs))
	}
	final := stream.Result(ctx)
	CheckInvariants(t, evs, final)
	return Render(evs)
}

// CheckInvariants verifies the ordering rules of the contract.
func CheckInvariants(t *testing.T, evs []ai.Event, final *ai.AssistantMessage) {
	t.Helper()
	if len(evs) == 0 {
		t.Fatal("no events")
	}
	last := evs[len(evs)-1]
	if !last.Type.IsTerminal() {
		t.Fatalf("last event is %s, want done or error", last.Type)
	}
	if last.Message == nil || final == nil {
		t.Fatal("terminal event or Result has no message")
	}
	if last.Message != final {
		t.Error("Result differs from the terminal event's message")
	}
	if last.Reason != final.StopReason {
		t.Errorf("terminal reason %s differs from message stop reason %s", last.Reason, final.StopReason)
	}
	switch last.Type {
	case ai.EventDone:
		switch last.Reason {
		case ai.StopReasonStop, ai.StopReasonLength, ai.StopReasonToolUse:
		default:
			t.Errorf("done with reason %s", last.Reason)
		}
	case ai.EventError:
		if last.Reason != ai.StopReasonError && last.Reason != ai.StopReasonAborted {
			t.Errorf("error with reason %s", last.Reason)
		}
		if final.ErrorMessage == "" {
			t.Error("error without errorMessage")
		}
	}
	// An HTTP error may fail before "start"; otherwise start comes first.
	if len(evs) > 1 && evs[0].Type != ai.EventStart {
		t.Errorf("first event is %s, want start", evs[0].Type)
	}
	open := map[int]string{}
	closed := map[int]bool{}
	for i, ev := range evs[:len(evs)-1] {
		kind, phase, ok := strings.Cut(string(ev.Type), "_")
		if ev.Type == ai.EventStart {
			if i != 0 {
				t.Errorf("start at position %d", i)
			}
			continue
		}
		if !ok {
			t.Errorf("unexpected event %s before the end", ev.Type)
			continue
		}
		switch phase {
		case "start":
			if _, dup := open[ev.ContentIndex]; dup || closed[ev.ContentIndex] {
				t.Errorf("%s reopens content index %d", ev.Type, ev.ContentIndex)
			}
			open[ev.ContentIndex] = kind
		case "delta", "end":
			if open[ev.ContentIndex] != kind {
				t.Errorf("%s on content index %d, which is not an open %s block", ev.Type, ev.ContentIndex, kind)
			}
			if phase == "end" {
				delete(open, ev.ContentIndex)
				closed[ev.ContentIndex] = true
			}
		}
		if ev.Partial == nil {
			t.Errorf("%s has no partial message", ev.Type)
		}
	}
	for _, b := range final.Content {
		if tc, ok := b.(*ai.ToolCall); ok && tc.PartialJSON != "" {
			t.Errorf("final tool call %s still holds partial JSON", tc.ID)
		}
	}
}

// Render turns events into the golden text: one line per event, runs of
// deltas of one block merged, then the final message as indented JSON with
// its timestamp zeroed.
func Render(evs []ai.Event) string {
	var b strings.Builder
	for i := 0; i < len(evs); i++ {
		ev := evs[i]
		switch {
		case ev.Type.IsDelta():
			d := ev.Delta
			for i+1 < len(evs) && evs[i+1].Type == ev.Type && evs[i+1].ContentIndex == ev.ContentIndex {
				i++
				d += evs[i].Delta
			}
			fmt.Fprintf(&b, "%s %d %q\n", ev.Type, ev.ContentIndex, d)
		case ev.Type == ai.EventTextEnd || ev.Type == ai.EventThinkingEnd:
			fmt.Fprintf(&b, "%s %d %q\n", ev.Type, ev.ContentIndex, ev.Content)
		case ev.Type == ai.EventToolCallEnd:
			tc, _ := json.Marshal(ev.ToolCall)
			fmt.Fprintf(&b, "%s %d %s\n", ev.Type, ev.ContentIndex, tc)
		case ev.Type.IsTerminal():
			fmt.Fprintf(&b, "%s %s\n", ev.Type, ev.Reason)
			if ev.Message != nil {
				m := *ev.Message
				m.Timestamp = 0
				data, _ := json.MarshalIndent(&m, "", "  ")
				b.WriteString("-- message --\n")
				b.Write(data)
				b.WriteString("\n")
			}
		case strings.HasSuffix(string(ev.Type), "_start"):
			fmt.Fprintf(&b, "%s %d\n", ev.Type, ev.ContentIndex)
		default:
			fmt.Fprintf(&b, "%s\n", ev.Type)
		}
	}
	return b.String()
}

// PrettyJSON re-indents a JSON body with sorted keys.
func PrettyJSON(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, body)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// RunOverflow plays an HTTP error whose message is the API's context
// overflow text and checks that the resulting message is an error that
// ai.IsContextOverflow recognises (so the session compacts instead of
// retrying).
func RunOverflow(t *testing.T, cfg Config, status int, message string) {
	t.Helper()
	srv := mockllm.New(t).Script(mockllm.Turn{Status: status, ErrorMessage: message})
	req := Conversation(cfg.Model(srv.URL()), cfg.PriorToolCallID)
	req.APIKey = cfg.APIKey
	_, final := cfg.Provider.Stream(context.Background(), req).Collect()
	if final.StopReason != ai.StopReasonError || !ai.IsContextOverflow(final, 0) {
		t.Errorf("overflow not recognised: stop %s, error %q", final.StopReason, final.ErrorMessage)
	}
	if ai.IsRetryable(final) {
		t.Errorf("an overflow is marked retryable: %q", final.ErrorMessage)
	}
}
