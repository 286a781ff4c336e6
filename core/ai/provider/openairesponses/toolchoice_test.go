package openairesponses

import (
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

func TestToolChoicePayload(t *testing.T) {
	m := &ai.Model{ID: "m", API: ai.API("x"), BaseURL: "http://x", MaxTokens: 100}
	tools := []ai.Tool{{Name: "resolve", Parameters: json.RawMessage(`{"type":"object"}`)}}
	for _, tc := range []struct {
		choice *ai.ToolChoice
		want   string
	}{
		{nil, `null`},
		{&ai.ToolChoice{Mode: ai.ToolChoiceTool, Name: "resolve"}, `{"name":"resolve","type":"function"}`},
	} {
		req := &ai.Request{Model: m, Tools: tools, ToolChoice: tc.choice}
		p := BuildPayload(req)
		got, _ := json.Marshal(p["tool_choice"])
		if string(got) != tc.want {
			t.Errorf("%+v: tool_choice %s, want %s", tc.choice, got, tc.want)
		}
	}
}
