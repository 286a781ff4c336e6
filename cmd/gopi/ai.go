package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
)

// aiCLI holds the typed flags of `gopi ai`.
type aiCLI struct {
	model, thinking, system                       string
	maxTokens, retries                            int
	apiKey, baseURL                               string
	retryDelay                                    time.Duration
	connectTimeout, firstByteTimeout, idleTimeout time.Duration
	showThinking, json, verbose, help             bool
}

// newAIFlagSet declares gopi ai's flags on c. It is also what completion
// scripts and the man page are generated from.
func newAIFlagSet(c *aiCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("ai", pflag.ContinueOnError)
	fs.SortFlags = false
	// Flags end at the first prompt word: `gopi ai -m M explain the -p
	// flag` sends "explain the -p flag".
	fs.SetInterspersed(false)
	fs.StringVarP(&c.model, "model", "m", "", "model: id, provider/id, name or fuzzy query; `MODEL`:LEVEL sets thinking")
	fs.StringVarP(&c.thinking, "thinking", "t", "", "thinking level: off, minimal, low, medium, high, xhigh")
	valueName(fs, "thinking", "LEVEL")
	fs.StringVarP(&c.system, "system", "s", "", "system prompt")
	valueName(fs, "system", "TEXT")
	nonNegIntVarP(fs, &c.maxTokens, "max-tokens", "", 0, "output token limit (default: the model's)")
	valueName(fs, "max-tokens", "N")
	fs.StringVar(&c.apiKey, "api-key", "", "API key (overrides stored credentials and environment)")
	valueName(fs, "api-key", "KEY")
	fs.StringVar(&c.baseURL, "base-url", "", "API base `URL` (overrides the model's)")
	nonNegIntVarP(fs, &c.retries, "retries", "", 0, "retry transient failures up to `N` times (default 0)")
	fs.DurationVar(&c.retryDelay, "retry-delay", 2*time.Second, "first retry delay, doubled each time (default 2s)")
	valueName(fs, "retry-delay", "DURATION")
	boundFlag(fs, "retry-delay", 1, "--retry-delay %q is not a positive duration such as 500ms or 2s")
	for _, f := range []struct {
		dst        *time.Duration
		name, help string
	}{
		{&c.connectTimeout, "connect-timeout", "give up connecting to the provider after `DURATION` (default 30s; 0 = never; setting provider.connectTimeoutMs)"},
		{&c.firstByteTimeout, "first-byte-timeout", "give up when the answer has not started after `DURATION` (default 120s; 0 = never; setting provider.firstEventTimeoutMs)"},
		{&c.idleTimeout, "idle-timeout", "give up when the streamed answer pauses for `DURATION` (default 120s; 0 = never; setting provider.idleTimeoutMs)"},
	} {
		fs.DurationVar(f.dst, f.name, 0, f.help)
		boundFlag(fs, f.name, 0, "--"+f.name+" %q is not a duration such as 500ms or 30s (0 = no limit)")
	}
	fs.BoolVar(&c.showThinking, "show-thinking", false, "print thinking to stderr as it streams")
	fs.BoolVar(&c.json, "json", false, "print every stream event as a JSON line instead of text")
	fs.BoolVarP(&c.verbose, "verbose", "v", false, "print model, stop reason, tokens and cost to stderr at the end")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const aiHelp = `Usage: gopi ai -m MODEL [flags] PROMPT...

Stream one completion (no tools) from MODEL and print the text as it
arrives; a prompt of "-" or none reads it from standard input. Flags go
before the prompt: from its first word on, everything is prompt. Useful to
check a provider, key or base URL. The exit status is 0 when the model
finished (stop or length), 2 on an error.

Flags:
`

// runAI implements `gopi ai`.
func runAI(ctx context.Context, env *cliEnv, args []string) int {
	var c aiCLI
	fs := newAIFlagSet(&c)
	if err := parseFlags(fs, args); err != nil {
		return fail(env, "ai", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, aiHelp+pflagHelp(fs))
		return exitMatch
	}
	if c.model == "" {
		for _, w := range fs.Args() {
			if w == "-m" || w == "--model" || strings.HasPrefix(w, "--model=") {
				return fail(env, "ai", usagef("-m MODEL is required before the prompt: from the first prompt word on, %q is prompt text", w))
			}
		}
		return fail(env, "ai", usagef("-m MODEL is required ('gopi models' lists them)"))
	}
	prompt := strings.Join(fs.Args(), " ")
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
	// A timeout flag given overrides the setting; 0 means no limit, which
	// core/ai takes as a negative duration.
	timeouts := env.cfg.ProviderTimeouts()
	for _, f := range []struct {
		name    string
		flag    time.Duration
		timeout *time.Duration
	}{{"connect-timeout", c.connectTimeout, &timeouts.Connect}, {"first-byte-timeout", c.firstByteTimeout, &timeouts.FirstEvent}, {"idle-timeout", c.idleTimeout, &timeouts.Idle}} {
		switch {
		case !fs.Changed(f.name):
		case f.flag == 0:
			*f.timeout = -1
		default:
			*f.timeout = f.flag
		}
	}
	client := ai.NewHTTPClient(timeouts.Connect)
	var flagLevel ai.ThinkingLevel
	if c.thinking != "" {
		l, ok := ai.ParseThinkingLevel(c.thinking)
		if !ok {
			return fail(env, "ai", usagef("unknown thinking level %q; use off, minimal, low, medium, high or xhigh", c.thinking))
		}
		flagLevel = l
	}

	reg, err := models.Load(modelsOptions(env.cfg))
	if err != nil {
		return fail(env, "ai", err)
	}
	query, level, hasLevel := models.ParseModelArg(c.model)
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
	if c.apiKey != "" {
		reg.SetAPIKey(model.Provider, c.apiKey)
	}

	newRequest := func() *ai.Request {
		return &ai.Request{
			Model:        model,
			SystemPrompt: c.system,
			Messages:     []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(prompt)}, Timestamp: time.Now().UnixMilli()}},
			MaxTokens:    c.maxTokens,
			Thinking:     level,
			BaseURL:      c.baseURL,

			FirstEventTimeout: timeouts.FirstEvent,
			IdleTimeout:       timeouts.Idle,
		}
	}
	out := &aiPrinter{env: env, json: c.json, thinking: c.showThinking}
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
	if c.retries == 0 {
		final = attempt(ctx)
	} else {
		policy := ai.RetryPolicy{MaxAttempts: c.retries, BaseDelay: c.retryDelay}
		final = ai.Retry(ctx, policy, attempt, out.retry)
	}
	out.finish(final)
	if c.verbose && final != nil {
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
