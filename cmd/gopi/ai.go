package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
)

var aiFlags = []flagSpec{
	{short: 'm', long: "model", value: "MODEL", help: "model: id, provider/id, name or fuzzy query; MODEL:LEVEL sets thinking"},
	{short: 't', long: "thinking", value: "LEVEL", help: "thinking level: off, minimal, low, medium, high, xhigh"},
	{short: 's', long: "system", value: "TEXT", help: "system prompt"},
	{long: "max-tokens", value: "N", help: "output token limit (default: the model's)"},
	{long: "api-key", value: "KEY", help: "API key (overrides stored credentials and environment)"},
	{long: "base-url", value: "URL", help: "API base URL (overrides the model's)"},
	{long: "retries", value: "N", help: "retry transient failures up to N times (default 0)"},
	{long: "retry-delay", value: "DURATION", help: "first retry delay, doubled each time (default 2s)"},
	{long: "connect-timeout", value: "DURATION", help: "give up connecting to the provider after DURATION (default 30s; 0 = never; setting provider.connectTimeoutMs)"},
	{long: "first-byte-timeout", value: "DURATION", help: "give up when the answer has not started after DURATION (default 120s; 0 = never; setting provider.firstEventTimeoutMs)"},
	{long: "idle-timeout", value: "DURATION", help: "give up when the streamed answer pauses for DURATION (default 120s; 0 = never; setting provider.idleTimeoutMs)"},
	{long: "show-thinking", help: "print thinking to stderr as it streams"},
	{long: "json", help: "print every stream event as a JSON line instead of text"},
	{short: 'v', long: "verbose", help: "print model, stop reason, tokens and cost to stderr at the end"},
	{short: 'h', long: "help", help: "show this help"},
}

const aiHelp = `Usage: gopi ai -m MODEL [flags] PROMPT...

Stream one completion (no tools) from MODEL and print the text as it
arrives; a prompt of "-" or none reads it from standard input. Useful to
check a provider, key or base URL. The exit status is 0 when the model
finished (stop or length), 2 on an error.

Flags:
`

// runAI implements `gopi ai`.
func runAI(ctx context.Context, env *cliEnv, args []string) int {
	p, err := parseArgs(aiFlags, args)
	if err != nil {
		return fail(env, "ai", err)
	}
	if p.flag("help") {
		fmt.Fprint(env.stdout, aiHelp+helpText(aiFlags))
		return exitMatch
	}
	modelArg := p.str("model", "")
	if modelArg == "" {
		return fail(env, "ai", usagef("-m MODEL is required ('gopi models' lists them)"))
	}
	prompt := strings.Join(p.rest, " ")
	if prompt == "" || prompt == "-" {
		data, err := io.ReadAll(env.stdin)
		if err != nil {
			return fail(env, "ai", fmt.Errorf("read prompt from stdin: %w", err))
		}
		prompt = string(data)
	}
	if strings.TrimSpace(prompt) == "" {
		return fail(env, "ai", usagef("empty prompt: give it as arguments or on stdin"))
	}
	maxTokens, err := p.nonNegInt("max-tokens", 0)
	if err != nil {
		return fail(env, "ai", err)
	}
	retries, err := p.nonNegInt("retries", 0)
	if err != nil {
		return fail(env, "ai", err)
	}
	retryDelay := 2 * time.Second
	if v := p.str("retry-delay", ""); v != "" {
		if retryDelay, err = time.ParseDuration(v); err != nil || retryDelay <= 0 {
			return fail(env, "ai", usagef("--retry-delay %q is not a positive duration such as 500ms or 2s", v))
		}
	}
	timeouts := env.cfg.ProviderTimeouts()
	for _, f := range []struct {
		name string
		dst  *time.Duration
	}{{"connect-timeout", &timeouts.Connect}, {"first-byte-timeout", &timeouts.FirstEvent}, {"idle-timeout", &timeouts.Idle}} {
		if d, set, err := timeoutFlag(p, f.name); err != nil {
			return fail(env, "ai", err)
		} else if set {
			*f.dst = d
		}
	}
	client := ai.NewHTTPClient(timeouts.Connect)
	var flagLevel ai.ThinkingLevel
	if v := p.str("thinking", ""); v != "" {
		l, ok := ai.ParseThinkingLevel(v)
		if !ok {
			return fail(env, "ai", usagef("unknown thinking level %q; use off, minimal, low, medium, high or xhigh", v))
		}
		flagLevel = l
	}

	reg, err := models.Load(modelsOptions(env.cfg))
	if err != nil {
		return fail(env, "ai", err)
	}
	query, level, hasLevel := models.ParseModelArg(modelArg)
	model, err := reg.Find(query)
	if err != nil {
		return fail(env, "ai", err)
	}
	if flagLevel != "" {
		level, hasLevel = flagLevel, true
	}
	if !hasLevel {
		level = ai.ThinkingOff
	}
	if k := p.str("api-key", ""); k != "" {
		reg.SetAPIKey(model.Provider, k)
	}

	newRequest := func() *ai.Request {
		return &ai.Request{
			Model:        model,
			SystemPrompt: p.str("system", ""),
			Messages:     []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(prompt)}, Timestamp: time.Now().UnixMilli()}},
			MaxTokens:    maxTokens,
			Thinking:     level,
			BaseURL:      p.str("base-url", ""),

			FirstEventTimeout: timeouts.FirstEvent,
			IdleTimeout:       timeouts.Idle,
		}
	}
	out := &aiPrinter{env: env, json: p.flag("json"), thinking: p.flag("show-thinking")}
	attempt := func(ctx context.Context) *ai.AssistantMessage {
		s := reg.Stream(ctx, newRequest(), client)
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
	if retries == 0 {
		final = attempt(ctx)
	} else {
		policy := ai.RetryPolicy{MaxAttempts: retries, BaseDelay: retryDelay}
		final = ai.Retry(ctx, policy, attempt, out.retry)
	}
	out.finish(final)
	if p.flag("verbose") && final != nil {
		u := final.Usage
		estimated := ""
		if u.Estimated {
			estimated = " (estimated)"
		}
		fmt.Fprintf(env.stderr, "model %s/%s, stop %s, tokens in %d out %d cache read %d write %d%s, cost $%.6f\n",
			final.Provider, final.Model, final.StopReason, u.Input, u.Output, u.CacheRead, u.CacheWrite, estimated, u.Cost.Total)
	}
	if final == nil || final.StopReason == ai.StopReasonError || final.StopReason == ai.StopReasonAborted {
		msg := "no response"
		if final != nil {
			msg = final.ErrorMessage
		}
		fmt.Fprintf(env.stderr, "gopi ai: %s\n", msg)
		return exitError
	}
	return exitMatch
}

// aiPrinter renders stream events as text or JSON lines. The text output
// ends with exactly one newline when any text was printed, however the
// answer itself ends: newlines at the end of what arrived so far are held
// back until more text follows, and endLine writes the single closing one.
// An answer of newlines only prints nothing.
type aiPrinter struct {
	env      *cliEnv
	json     bool
	thinking bool
	open     bool // text was printed and its last line not yet ended
	held     int  // trailing newlines of the text, not printed yet
}

func (o *aiPrinter) event(ev ai.Event) {
	if o.json {
		ev.Partial = nil
		if ev.Message != nil {
			m := *ev.Message
			m.Timestamp = 0
			ev.Message = &m
		}
		data, _ := json.Marshal(ev)
		fmt.Fprintf(o.env.stdout, "%s\n", data)
		return
	}
	switch ev.Type {
	case ai.EventTextDelta:
		o.text(ev.Delta)
	case ai.EventThinkingDelta:
		if o.thinking {
			io.WriteString(o.env.stderr, ev.Delta)
		}
	case ai.EventThinkingEnd:
		if o.thinking {
			io.WriteString(o.env.stderr, "\n")
		}
	}
}

func (o *aiPrinter) retry(e ai.RetryEvent) {
	o.endLine()
	if o.json {
		data, _ := json.Marshal(e)
		fmt.Fprintf(o.env.stdout, "%s\n", data)
		return
	}
	switch e.Type {
	case ai.EventAutoRetryStart:
		fmt.Fprintf(o.env.stderr, "gopi ai: %s; retry %d/%d in %s\n", e.ErrorMessage, e.Attempt, e.MaxAttempts, time.Duration(e.DelayMs)*time.Millisecond)
	case ai.EventAutoRetryEnd:
		if e.Success {
			fmt.Fprintf(o.env.stderr, "gopi ai: retry %d succeeded\n", e.Attempt)
		}
	}
}

// text prints a piece of the answer, holding back its trailing newlines.
func (o *aiPrinter) text(s string) {
	body := strings.TrimRight(s, "\n")
	if body == "" {
		o.held += len(s)
		return
	}
	io.WriteString(o.env.stdout, strings.Repeat("\n", o.held)+body)
	o.held = len(s) - len(body)
	o.open = true
}

// endLine ends the printed text with exactly one newline.
func (o *aiPrinter) endLine() {
	if !o.json && o.open {
		io.WriteString(o.env.stdout, "\n")
		o.open, o.held = false, 0
	}
}

func (o *aiPrinter) finish(*ai.AssistantMessage) { o.endLine() }

// timeoutFlag reads a DURATION flag where 0 means no limit: it returns the
// limit in core/ai's form (negative for none) and whether the flag was set.
func timeoutFlag(p *parsedArgs, name string) (time.Duration, bool, error) {
	v := p.str(name, "")
	if v == "" {
		return 0, false, nil
	}
	if v == "0" {
		return -1, true, nil
	}
	d, err := time.ParseDuration(v)
	switch {
	case err != nil || d < 0:
		return 0, false, usagef("--%s %q is not a duration such as 500ms or 30s (0 = no limit)", name, v)
	case d == 0:
		return -1, true, nil
	}
	return d, true, nil
}
