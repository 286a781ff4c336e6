package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

func TestToolChoicePayload(t *testing.T) {
	m := testModel("http://x")
	tools := []ai.Tool{{Name: "resolve", Parameters: json.RawMessage(`{"type":"object"}`)}}
	for _, tc := range []struct {
		choice *ai.ToolChoice
		want   string
	}{
		{nil, `null`},
		{&ai.ToolChoice{Mode: ai.ToolChoiceNone}, `{"type":"none"}`},
		{&ai.ToolChoice{Mode: ai.ToolChoiceRequired}, `{"type":"any"}`},
		{&ai.ToolChoice{Mode: ai.ToolChoiceTool, Name: "resolve"}, `{"name":"resolve","type":"tool"}`},
	} {
		p := buildPayload(&ai.Request{Model: m, Tools: tools, ToolChoice: tc.choice, Thinking: ai.ThinkingHigh})
		got, _ := json.Marshal(p.ToolChoice)
		if string(got) != tc.want {
			t.Errorf("%+v: tool_choice %s, want %s", tc.choice, got, tc.want)
		}
		forced := tc.choice != nil && (tc.choice.Mode == ai.ToolChoiceTool || tc.choice.Mode == ai.ToolChoiceRequired)
		if forced == (p.Thinking != nil) {
			t.Errorf("%+v: thinking %+v (the API refuses thinking with a forced tool)", tc.choice, p.Thinking)
		}
	}
}
