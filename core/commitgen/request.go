package commitgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// toolRequest is one request answered through a tool.
type toolRequest struct {
	system    string
	messages  []ai.Message
	tool      ai.Tool
	maxTokens int
}

// call sends a request and returns the reply and the tool's arguments as
// JSON: the call's, or a JSON object in the text when the model answered
// without the tool. Errors name the model and say what was wrong.
func (g *Generator) call(ctx context.Context, r toolRequest, what string) (*ai.AssistantMessage, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	reply := g.Stream(ctx, &ai.Request{
		Model:        g.Model,
		SystemPrompt: r.system,
		Messages:     r.messages,
		Tools:        []ai.Tool{r.tool},
		MaxTokens:    r.maxTokens,
		Thinking:     ai.ThinkingOff,
	}).Result(ctx)
	name := g.Model.Provider + "/" + g.Model.ID
	if reply == nil {
		return nil, nil, fmt.Errorf("%s gave no answer", name)
	}
	if reply.StopReason == ai.StopReasonError || reply.StopReason == ai.StopReasonAborted {
		msg := reply.ErrorMessage
		if msg == "" {
			msg = string(reply.StopReason)
		}
		return nil, nil, fmt.Errorf("%s: %s", name, msg)
	}
	for _, c := range reply.ToolCalls() {
		if c.Name == r.tool.Name {
			b, err := json.Marshal(c.Arguments)
			return reply, b, err
		}
	}
	text := reply.Text()
	i, j := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
	if i < 0 || j < i {
		return nil, nil, fmt.Errorf("%s: the answer has no %s (neither a %s call nor JSON); try another model with -m", name, what, r.tool.Name)
	}
	return reply, []byte(text[i : j+1]), nil
}

// decode reads the arguments into v; the error names what they were.
func decode(raw []byte, v any, what string) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return errors.New("the " + what + " in the answer is not readable: " + err.Error())
	}
	return nil
}
