// Package commitgen writes a commit message for the staged changes of a
// git repository with a model, in the Conventional Commits form and with
// the conventions of omp's commit command (type, optional lowercase scope,
// a past-tense summary of at most 72 characters without a trailing
// period, a body of short sentences), and commits it: what `gopi commit`
// does. The model is asked once through a propose_commit tool; a message
// that breaks a convention is sent back with the problems, up to three
// attempts in all.
package commitgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// MaxDiff bounds the characters of the diff the model is shown.
const MaxDiff = 100_000

// attempts is how many times the model is asked before its last answer
// is taken as it is (still normalized).
const attempts = 3

// requestTimeout bounds one request to the model.
const requestTimeout = 3 * time.Minute

// toolName is the tool the model answers through.
const toolName = "propose_commit"

// Input is what the model is shown.
type Input struct {
	Diff, Stat     string
	RecentSubjects []string
	Context        string // the user's words about the change (-c)
}

// Generator asks a model for messages.
type Generator struct {
	Model  *ai.Model
	Stream func(ctx context.Context, req *ai.Request) *ai.Stream
}

// Generate asks the model for a message for in. A message that still
// breaks a convention after the last attempt is returned with its
// problems (the caller may warn); an error means there is no message.
func (g *Generator) Generate(ctx context.Context, in Input) (Message, []string, error) {
	msgs := []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(userPrompt(in))}, Timestamp: time.Now().UnixMilli()}}
	var last Message
	var problems []string
	for range attempts {
		reply, m, err := g.ask(ctx, msgs)
		if err != nil {
			return Message{}, nil, err
		}
		last, problems = m, m.Problems()
		if len(problems) == 0 {
			return m, nil, nil
		}
		msgs = append(msgs, reply)
		msgs = append(msgs, retryMessage(reply, problems))
	}
	return last, problems, nil
}

// ask sends one request and reads the message from the reply.
func (g *Generator) ask(ctx context.Context, msgs []ai.Message) (*ai.AssistantMessage, Message, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req := &ai.Request{
		Model:        g.Model,
		SystemPrompt: instructions,
		Messages:     msgs,
		Tools:        []ai.Tool{{Name: toolName, Description: "Propose the commit message for the staged changes.", Parameters: json.RawMessage(toolSchema)}},
		MaxTokens:    2400,
		Thinking:     ai.ThinkingOff,
	}
	reply := g.Stream(ctx, req).Result(ctx)
	if reply == nil {
		return nil, Message{}, errors.New("the model gave no answer")
	}
	if reply.StopReason == ai.StopReasonError || reply.StopReason == ai.StopReasonAborted {
		msg := reply.ErrorMessage
		if msg == "" {
			msg = string(reply.StopReason)
		}
		return nil, Message{}, fmt.Errorf("%s/%s: %s", g.Model.Provider, g.Model.ID, msg)
	}
	m, err := parseReply(reply)
	if err != nil {
		return nil, Message{}, fmt.Errorf("%s/%s: %w", g.Model.Provider, g.Model.ID, err)
	}
	return reply, m, nil
}

// parseReply reads the message from the propose_commit call, or from a
// JSON object in the text when the model answered without the tool.
func parseReply(reply *ai.AssistantMessage) (Message, error) {
	var raw []byte
	for _, c := range reply.ToolCalls() {
		if c.Name == toolName {
			b, err := json.Marshal(c.Arguments)
			if err != nil {
				return Message{}, err
			}
			raw = b
			break
		}
	}
	if raw == nil {
		text := reply.Text()
		i, j := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
		if i < 0 || j < i {
			return Message{}, errors.New("the answer has no commit message (neither a propose_commit call nor JSON); try another model with -m")
		}
		raw = []byte(text[i : j+1])
	}
	var m Message
	if err := json.Unmarshal(raw, &m); err != nil {
		return Message{}, fmt.Errorf("the commit message in the answer is not readable: %v", err)
	}
	m.normalize()
	return m, nil
}

// retryMessage answers the model's call with the problems to fix.
func retryMessage(reply *ai.AssistantMessage, problems []string) ai.Message {
	text := "The message breaks these rules: " + strings.Join(problems, "; ") + ". Call " + toolName + " again with a corrected message."
	for _, c := range reply.ToolCalls() {
		if c.Name == toolName {
			return &ai.ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, Content: ai.ContentList{ai.Text(text)}, IsError: true, Timestamp: time.Now().UnixMilli()}
		}
	}
	return &ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Timestamp: time.Now().UnixMilli()}
}
