package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/aicli"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/internal/cliflags"
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
	cliflags.ValueName(fs, "thinking", "LEVEL")
	fs.StringVarP(&c.system, "system", "s", "", "system prompt")
	cliflags.ValueName(fs, "system", "TEXT")
	cliflags.NonNegIntVarP(fs, &c.maxTokens, "max-tokens", "", 0, "output token limit (default: the model's)")
	cliflags.ValueName(fs, "max-tokens", "N")
	fs.StringVar(&c.apiKey, "api-key", "", "API key (overrides stored credentials and environment)")
	cliflags.ValueName(fs, "api-key", "KEY")
	fs.StringVar(&c.baseURL, "base-url", "", "API base `URL` (overrides the model's)")
	cliflags.NonNegIntVarP(fs, &c.retries, "retries", "", 0, "retry transient failures up to `N` times (default 0)")
	fs.DurationVar(&c.retryDelay, "retry-delay", 2*time.Second, "first retry delay, doubled each time (default 2s)")
	cliflags.ValueName(fs, "retry-delay", "DURATION")
	cliflags.Bound(fs, "retry-delay", 1, "--retry-delay %q is not a positive duration such as 500ms or 2s")
	for _, f := range []struct {
		dst        *time.Duration
		name, help string
	}{
		{&c.connectTimeout, "connect-timeout", "give up connecting to the provider after `DURATION` (default 30s; 0 = never; setting provider.connectTimeoutMs)"},
		{&c.firstByteTimeout, "first-byte-timeout", "give up when the answer has not started after `DURATION` (default 120s; 0 = never; setting provider.firstEventTimeoutMs)"},
		{&c.idleTimeout, "idle-timeout", "give up when the streamed answer pauses for `DURATION` (default 120s; 0 = never; setting provider.idleTimeoutMs)"},
	} {
		fs.DurationVar(f.dst, f.name, 0, f.help)
		cliflags.Bound(fs, f.name, 0, "--"+f.name+" %q is not a duration such as 500ms or 30s (0 = no limit)")
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
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "ai", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, aiHelp+cliflags.Help(fs))
		return exitMatch
	}
	if c.model == "" {
		for _, w := range fs.Args() {
			if w == "-m" || w == "--model" || strings.HasPrefix(w, "--model=") {
				return fail(env, "ai", cliflags.Usagef("-m MODEL is required before the prompt: from the first prompt word on, %q is prompt text", w))
			}
		}
		return fail(env, "ai", cliflags.Usagef("-m MODEL is required ('gopi models' lists them)"))
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
		return fail(env, "ai", cliflags.Usagef("empty prompt: give it as arguments or on stdin"))
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
			return fail(env, "ai", cliflags.Usagef("unknown thinking level %q; use off, minimal, low, medium, high or xhigh", c.thinking))
		}
		flagLevel = l
	}

	reg, err := models.Load(env.modelsOptions())
	if err != nil {
		return fail(env, "ai", err)
	}
	reg.Discover(ctx, nil, 0) // Find waits only for a probe the model names
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

	err = aicli.Run(ctx, aicli.Options{
		Stream: func(ctx context.Context, req *ai.Request) *ai.Stream { return reg.Stream(ctx, req, client) },
		Request: ai.Request{
			Model:        model,
			SystemPrompt: c.system,
			MaxTokens:    c.maxTokens,
			Thinking:     level,
			BaseURL:      c.baseURL,

			FirstEventTimeout: timeouts.FirstEvent,
			IdleTimeout:       timeouts.Idle,
		},
		Prompt:  prompt,
		Retries: c.retries, RetryDelay: c.retryDelay,
		JSON: c.json, Thinking: c.showThinking, Verbose: c.verbose,
	}, env.stdout, env.stderr)
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi ai: %v\n", err)
		return exitError
	}
	return exitMatch
}
