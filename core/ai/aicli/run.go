// Package aicli streams one completion (no tools) from a model and prints
// it as it arrives: the body of `gopi ai`, once its flags, the model and
// the configuration's timeouts are resolved into Options. The answer's
// text goes to standard output ending in exactly one newline, thinking
// (when asked) and retry notices to standard error; with JSON every stream
// and retry event is one line of JSON instead.
package aicli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// Options is one `gopi ai`.
type Options struct {
	// Stream starts the provider's stream for a request (a model
	// registry's, with its HTTP client).
	Stream func(ctx context.Context, req *ai.Request) *ai.Stream
	// Request is what every attempt asks (model, system prompt, limits,
	// thinking, base URL, timeouts); its Messages are Prompt's, stamped
	// afresh for each attempt.
	Request ai.Request
	Prompt  string
	// Retries is how many times a transient failure is retried (0: none),
	// the first after RetryDelay, each next one after twice as long.
	Retries    int
	RetryDelay time.Duration
	JSON       bool // print every event as a JSON line instead of text
	Thinking   bool // print the thinking to Stderr as it streams
	Verbose    bool // print the model, stop reason, tokens and cost to Stderr at the end
}

// Run streams the completion, printing it to stdout (thinking, retries
// and the verbose summary to stderr). It returns an error, whose text is
// the provider's message, when the model did not finish (stop or length):
// an error, an abort, or no response at all.
func Run(ctx context.Context, o Options, stdout, stderr io.Writer) error {
	out := &printer{stdout: stdout, stderr: stderr, json: o.JSON, thinking: o.Thinking}
	attempt := func(ctx context.Context) *ai.AssistantMessage {
		req := o.Request
		req.Messages = []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(o.Prompt)}, Timestamp: time.Now().UnixMilli()}}
		s := o.Stream(ctx, &req)
		for {
			ev, ok := s.Next(ctx)
			if !ok {
				break
			}
			out.event(ev)
		}
		return s.Result(context.Background())
	}
	var final *ai.AssistantMessage
	if o.Retries == 0 {
		final = attempt(ctx)
	} else {
		policy := ai.RetryPolicy{MaxAttempts: o.Retries, BaseDelay: o.RetryDelay}
		final = ai.Retry(ctx, policy, attempt, out.retry)
	}
	out.finish(final)
	if o.Verbose && final != nil {
		u := final.Usage
		estimated := ""
		if u.Estimated {
			estimated = " (estimated)"
		}
		fmt.Fprintf(stderr, "model %s/%s, stop %s, tokens in %d out %d cache read %d write %d%s, cost $%.6f\n",
			final.Provider, final.Model, final.StopReason, u.Input, u.Output, u.CacheRead, u.CacheWrite, estimated, u.Cost.Total)
	}
	if final == nil {
		return errors.New("no response")
	}
	if final.StopReason == ai.StopReasonError || final.StopReason == ai.StopReasonAborted {
		return errors.New(final.ErrorMessage)
	}
	return nil
}
