package message

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// Messages as omp writes them (field order of its object literals,
// undefined fields absent). Each must decode to its type and marshal back
// byte for byte.
var ompMessages = []struct {
	json string
	want ai.Message
}{
	{`{"role":"custom","customType":"handoff","content":"<handoff-context>\nx\n</handoff-context>","display":true,"details":{"a":1},"attribution":"agent","timestamp":1760000000000}`,
		&Custom{CustomType: "handoff", Content: PlainText("<handoff-context>\nx\n</handoff-context>"), Display: true, Details: json.RawMessage(`{"a":1}`), Attribution: "agent", Timestamp: 1760000000000}},
	{`{"role":"custom","customType":"img","content":[{"type":"text","text":"see"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"display":false,"timestamp":1}`,
		&Custom{CustomType: "img", Content: Content{Blocks: ai.ContentList{ai.Text("see"), &ai.ImageContent{Data: "AAAA", MIMEType: "image/png"}}}, Timestamp: 1}},
	{`{"role":"branchSummary","summary":"did things","fromId":"root","timestamp":2}`,
		&BranchSummary{Summary: "did things", FromID: "root", Timestamp: 2}},
	{`{"role":"compactionSummary","summary":"s","shortSummary":"short","tokensBefore":42000,"providerPayload":{"type":"openaiResponsesHistory","provider":"openai","items":[]},"timestamp":3,"zFuture":[1,2]}`,
		&CompactionSummary{Summary: "s", ShortSummary: "short", TokensBefore: 42000, ProviderPayload: json.RawMessage(`{"type":"openaiResponsesHistory","provider":"openai","items":[]}`), Timestamp: 3,
			Extra: map[string]json.RawMessage{"zFuture": json.RawMessage(`[1,2]`)}, extraOrder: []string{"zFuture"}}},
	{`{"role":"bashExecution","command":"ls","output":"a\nb","exitCode":0,"cancelled":false,"truncated":false,"timestamp":4}`,
		&BashExecution{Command: "ls", Output: "a\nb", ExitCode: intp(0), Timestamp: 4}},
	{`{"role":"bashExecution","command":"sleep 9","output":"","cancelled":true,"truncated":false,"meta":{"truncation":{"artifactId":"3"}},"timestamp":5,"excludeFromContext":true}`,
		&BashExecution{Command: "sleep 9", Cancelled: true, Meta: json.RawMessage(`{"truncation":{"artifactId":"3"}}`), Timestamp: 5, ExcludeFromContext: true}},
	{`{"role":"pythonExecution","code":"print(1)","output":"1","exitCode":1,"cancelled":false,"truncated":true,"timestamp":6}`,
		&PythonExecution{Code: "print(1)", Output: "1", ExitCode: intp(1), Truncated: true, Timestamp: 6}},
	{`{"role":"fileMention","files":[{"path":"a.go","content":"package a","lineCount":1}],"timestamp":7}`,
		&FileMention{Files: []MentionedFile{{Path: "a.go", Content: "package a", LineCount: intp(1)}}, Timestamp: 7}},
}

func intp(i int) *int { return &i }

func TestDecodeAndMarshalLikeOmp(t *testing.T) {
	for _, tc := range ompMessages {
		m, err := Decode([]byte(tc.json))
		if err != nil {
			t.Fatalf("Decode(%s): %v", tc.json, err)
		}
		if !reflect.DeepEqual(m, tc.want) {
			t.Errorf("Decode(%s)\n got %#v\nwant %#v", tc.json, m, tc.want)
		}
		// json.Marshal would HTML-escape; sessions encode as JSON.stringify does.
		b, err := marshalNoEscape(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.json {
			t.Errorf("Marshal\n got %s\nwant %s", b, tc.json)
		}
	}
}

func TestDecodeHookMessageAndOthers(t *testing.T) {
	m, err := Decode([]byte(`{"role":"hookMessage","customType":"h","content":"x","display":true,"timestamp":1}`))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := m.(*Custom)
	if !ok || c.CustomType != "h" {
		t.Fatalf("hookMessage decoded to %#v", m)
	}
	if b, _ := json.Marshal(c); !strings.HasPrefix(string(b), `{"role":"custom"`) {
		t.Errorf("hookMessage re-marshals as %s", b)
	}
	m, err = Decode([]byte(`{"role":"user","content":"hi","timestamp":1}`))
	if _, ok := m.(*ai.UserMessage); err != nil || !ok {
		t.Fatalf("user: %T %v", m, err)
	}
	raw := `{"role":"developer","content":"x","weird":[1]}`
	m, err = Decode([]byte(raw))
	o, ok := m.(*ai.OpaqueMessage)
	if err != nil || !ok || string(o.Raw) != raw {
		t.Fatalf("unknown role: %#v %v", m, err)
	}
	if _, err := Decode([]byte(`{"role":"custom","content":5}`)); err == nil {
		t.Error("bad custom content: no error")
	}
	if _, err := Decode([]byte(`[`)); err == nil {
		t.Error("bad JSON: no error")
	}
}

func TestToLLM(t *testing.T) {
	user := &ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}, Timestamp: 1}
	asst := &ai.AssistantMessage{Content: ai.ContentList{ai.Text("ok")}}
	pruned := &ai.ToolResultMessage{ToolCallID: "c", ToolName: "read", Content: ai.ContentList{&ai.ImageContent{Data: "x"}}, PrunedAt: 9}
	result := &ai.ToolResultMessage{ToolCallID: "c", Content: ai.ContentList{ai.Text("r")}, Attribution: "user"}
	in := []ai.Message{
		user, asst, pruned, result,
		&Custom{CustomType: "x", Content: PlainText("injected"), Attribution: "agent", Timestamp: 2},
		&BranchSummary{Summary: "BRANCH", FromID: "root", Timestamp: 3},
		&CompactionSummary{Summary: "COMPACT", TokensBefore: 5, Timestamp: 4},
		&BashExecution{Command: "false", Output: "", ExitCode: intp(1), Timestamp: 5},
		&BashExecution{Command: "secret", ExcludeFromContext: true},
		&PythonExecution{Code: "1/0", Output: "ZeroDivisionError", Cancelled: true, Meta: json.RawMessage(`{"truncation":{"artifactId":"7"}}`)},
		&PythonExecution{Code: "x", ExcludeFromContext: true},
		&ai.OpaqueMessage{Role: "future", Raw: json.RawMessage(`{"role":"future"}`)},
		&FileMention{Files: []MentionedFile{{Path: "a.txt", Content: "A"}, {Path: "p.png", Image: &ai.ImageContent{Data: "Z", MIMEType: "image/png"}}}},
	}
	out := ToLLM(in)
	if len(out) != 10 {
		t.Fatalf("got %d messages, want 10: %#v", len(out), out)
	}
	if u := out[0].(*ai.UserMessage); u == user || u.Attribution != "user" || user.Attribution != "" {
		t.Errorf("user attribution not defaulted on a copy: %#v", u)
	}
	if out[1] != asst {
		t.Error("assistant not passed through")
	}
	p := out[2].(*ai.ToolResultMessage)
	if p.Attribution != "agent" || len(p.Content) != 1 || p.Content[0].(*ai.TextContent).Text != prunedPlaceholder || len(pruned.Content) != 1 || pruned.Content[0].ContentType() != "image" {
		t.Errorf("pruned tool result: %#v", p)
	}
	if out[3] != result {
		t.Error("tool result with attribution not passed through")
	}
	texts := func(m ai.Message) string {
		u, ok := m.(*ai.UserMessage)
		if !ok {
			t.Fatalf("%T is not a user message", m)
		}
		var s string
		for _, c := range u.Content {
			if tc, ok := c.(*ai.TextContent); ok {
				s += tc.Text
			}
		}
		return s
	}
	if s := texts(out[4]); s != "injected" || out[4].(*ai.UserMessage).Attribution != "agent" {
		t.Errorf("custom: %q", s)
	}
	if s := texts(out[5]); !strings.Contains(s, "BRANCH") || !strings.Contains(s, "earlier point") || out[5].(*ai.UserMessage).Attribution != "agent" {
		t.Errorf("branch summary: %q", s)
	}
	if s := texts(out[6]); !strings.Contains(s, "COMPACT") || !strings.Contains(s, "condensed") {
		t.Errorf("compaction summary: %q", s)
	}
	if s := texts(out[7]); !strings.Contains(s, "$ false") || !strings.Contains(s, "exit code 1") || !strings.Contains(s, "printed nothing") {
		t.Errorf("bash: %q", s)
	}
	if s := texts(out[8]); !strings.Contains(s, "1/0") || !strings.Contains(s, "cancelled") || !strings.Contains(s, "artifact://7") {
		t.Errorf("python: %q", s)
	}
	fm := out[9].(*ai.UserMessage)
	if s := texts(fm); !strings.Contains(s, `<file path="a.txt">`+"\nA\n</file>") || len(fm.Content) != 2 {
		t.Errorf("file mention: %q %d blocks", s, len(fm.Content))
	}
}

func TestToLLMReplacesMissingBlobs(t *testing.T) {
	in := []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("look"), &ai.ImageContent{Data: "blob:sha256:abc", MIMEType: "image/png"}, &ai.ImageContent{Data: "iVBOR", MIMEType: "image/png"}}}}
	out := ToLLM(in)
	u := out[0].(*ai.UserMessage)
	if u.Content[1].(*ai.TextContent).Text != MissingImageText || u.Content[2].(*ai.ImageContent).Data != "iVBOR" {
		t.Fatalf("content %#v", u.Content)
	}
	if in[0].(*ai.UserMessage).Content[1].(*ai.ImageContent).Data != "blob:sha256:abc" {
		t.Fatal("the session's message was changed")
	}
}
