package rpcclient

import (
	"context"
	"encoding/json"
)

// Prompt sends a prompt. It returns once gopi has acknowledged it; the run
// streams as events (wait for "agent_end"). While a run is in progress, use
// PromptAs with "steer" or "followUp".
func (c *Client) Prompt(ctx context.Context, message string) error {
	_, err := c.Call(ctx, "prompt", map[string]any{"message": message})
	return err
}

// PromptAs sends a prompt with a streaming behavior ("steer" or
// "followUp") for a run in progress.
func (c *Client) PromptAs(ctx context.Context, message, behavior string) error {
	_, err := c.Call(ctx, "prompt", map[string]any{"message": message, "streamingBehavior": behavior})
	return err
}

// Steer queues a message before the next model call.
func (c *Client) Steer(ctx context.Context, message string) error {
	_, err := c.Call(ctx, "steer", map[string]any{"message": message})
	return err
}

// FollowUp queues a message for when the run would end.
func (c *Client) FollowUp(ctx context.Context, message string) error {
	_, err := c.Call(ctx, "follow_up", map[string]any{"message": message})
	return err
}

// Abort stops the run in progress.
func (c *Client) Abort(ctx context.Context) error {
	_, err := c.Call(ctx, "abort", nil)
	return err
}

// State is the part of get_state most hosts need; Raw holds all of it.
type State struct {
	Model struct {
		Provider string `json:"provider"`
		ID       string `json:"id"`
	} `json:"model"`
	ThinkingLevel      string `json:"thinkingLevel"`
	IsStreaming        bool   `json:"isStreaming"`
	SteeringMode       string `json:"steeringMode"`
	FollowUpMode       string `json:"followUpMode"`
	InterruptMode      string `json:"interruptMode"`
	SessionFile        string `json:"sessionFile"`
	SessionID          string `json:"sessionId"`
	SessionName        string `json:"sessionName"`
	MessageCount       int    `json:"messageCount"`
	QueuedMessageCount int    `json:"queuedMessageCount"`
	Raw                json.RawMessage
}

// GetState returns the session's state.
func (c *Client) GetState(ctx context.Context) (*State, error) {
	r, err := c.Call(ctx, "get_state", nil)
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(r.Data, &s); err != nil {
		return nil, err
	}
	s.Raw = r.Data
	return &s, nil
}

// GetMessages returns the conversation as raw message objects.
func (c *Client) GetMessages(ctx context.Context) ([]json.RawMessage, error) {
	r, err := c.Call(ctx, "get_messages", nil)
	if err != nil {
		return nil, err
	}
	var d struct {
		Messages []json.RawMessage `json:"messages"`
	}
	return d.Messages, json.Unmarshal(r.Data, &d)
}

// LastAssistantText returns the text of the last answer.
func (c *Client) LastAssistantText(ctx context.Context) (string, error) {
	r, err := c.Call(ctx, "get_last_assistant_text", nil)
	if err != nil {
		return "", err
	}
	var d struct {
		Text string `json:"text"`
	}
	return d.Text, json.Unmarshal(r.Data, &d)
}
