package ai

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestMessageJSONRoundTrip(t *testing.T) {
	msgs := []Message{
		&UserMessage{Content: ContentList{Text("hi"), &ImageContent{Data: "AAA=", MIMEType: "image/png"}}, Timestamp: 5},
		&AssistantMessage{
			Content: ContentList{
				&ThinkingContent{Thinking: "hmm", ThinkingSignature: "sig"},
				&TextContent{Text: "ok"},
				&ToolCall{ID: "t1", Name: "read", Arguments: map[string]any{"path": "a"}},
			},
			API: APIAnthropicMessages, Provider: "anthropic", Model: "m",
			Usage:      Usage{Input: 1, Output: 2, TotalTokens: 3, Cost: Cost{Total: 0.5}},
			StopReason: StopReasonToolUse, Timestamp: 6,
		},
		&ToolResultMessage{ToolCallID: "t1", ToolName: "read", Content: ContentList{Text("x")}, IsError: true, Timestamp: 7},
	}
	for _, m := range msgs {
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := UnmarshalMessage(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !reflect.DeepEqual(back, m) {
			t.Errorf("round trip changed the message:\n%s\n%#v", data, back)
		}
	}
}

func TestMessageJSONShape(t *testing.T) {
	data, _ := json.Marshal(&AssistantMessage{Content: ContentList{&ToolCall{ID: "a", Name: "b"}}, StopReason: StopReasonStop})
	for _, want := range []string{`"role":"assistant"`, `"type":"toolCall"`, `"arguments":{}`, `"stopReason":"stop"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %s", data, want)
		}
	}
	if strings.Contains(string(data), "errorMessage") || strings.Contains(string(data), "PartialJSON") {
		t.Errorf("unexpected fields in %s", data)
	}
	var u UserMessage
	if err := json.Unmarshal([]byte(`{"role":"user","content":"plain","timestamp":1}`), &u); err != nil || len(u.Content) != 1 || u.Content[0].(*TextContent).Text != "plain" {
		t.Errorf("string content: %v %#v", err, u)
	}
}

func TestComputeCost(t *testing.T) {
	u := Usage{Input: 1_000_000, Output: 500_000, CacheRead: 2_000_000, CacheWrite: 100_000}
	c := ComputeCost(Prices{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}, &u)
	want := Cost{Input: 3, Output: 7.5, CacheRead: 0.6, CacheWrite: 0.375, Total: 11.475}
	const eps = 1e-9
	for _, p := range [][2]float64{{c.Input, want.Input}, {c.Output, want.Output}, {c.CacheRead, want.CacheRead}, {c.CacheWrite, want.CacheWrite}, {c.Total, want.Total}} {
		if p[0]-p[1] > eps || p[1]-p[0] > eps {
			t.Fatalf("cost %+v, want %+v", c, want)
		}
	}
	if u.Cost != c || u.TotalTokens != 3_600_000 {
		t.Errorf("usage not updated: %+v", u)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	m := &AssistantMessage{Content: ContentList{Text("a")}}
	c := m.Clone()
	c.Content[0].(*TextContent).Text = "b"
	c.Content = append(c.Content, Text("x"))
	if m.Content[0].(*TextContent).Text != "a" || len(m.Content) != 1 {
		t.Error("clone shares blocks")
	}
}

// Unknown roles and block types (from a newer version, or agent-level
// roles) must survive a decode/encode cycle byte for byte.
func TestUnknownRolesAndBlocksRoundTrip(t *testing.T) {
	for _, raw := range []string{
		`{"role":"robot","beep":[1,2,{"x":null}],"timestamp":3}`,
		`{"role":"bashExecution","command":"ls","output":"a","exitCode":0,"cancelled":false,"truncated":false,"timestamp":1}`,
	} {
		m, err := UnmarshalMessage([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if o, ok := m.(*OpaqueMessage); !ok || o.Role == "" {
			t.Fatalf("%s decoded to %T", raw, m)
		}
		back, _ := json.Marshal(m)
		if string(back) != raw {
			t.Errorf("round trip changed %s into %s", raw, back)
		}
	}
	raw := `{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"video","url":"u","frames":[1]}],"api":"x","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1}`
	m, err := UnmarshalMessage([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	blk := m.(*AssistantMessage).Content[1]
	if blk.ContentType() != "video" {
		t.Fatalf("block decoded to %T", blk)
	}
	back, _ := json.Marshal(m)
	if string(back) != raw {
		t.Errorf("round trip:\n got %s\nwant %s", back, raw)
	}
	if _, err := UnmarshalMessage([]byte(`{"role":"robot",`)); err == nil {
		t.Error("broken JSON accepted")
	}
}
