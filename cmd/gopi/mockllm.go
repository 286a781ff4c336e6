package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// mockllmCLI holds the typed flags of `gopi mockllm`.
type mockllmCLI struct {
	script, addr, record      string
	check, exitWhenDone, help bool
}

// newMockLLMFlagSet declares gopi mockllm's flags on c. It is also what
// completion scripts and the man page are generated from.
func newMockLLMFlagSet(c *mockllmCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("mockllm", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVar(&c.script, "script", "", "JSON script of turns to play (required; format below)")
	cliflags.ValueName(fs, "script", "FILE")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "listen address (default 127.0.0.1:0, a free port)")
	cliflags.ValueName(fs, "addr", "ADDR")
	fs.BoolVar(&c.check, "check", false, "validate the script, print its turns and exit")
	fs.BoolVar(&c.exitWhenDone, "exit-when-done", false, "exit once every turn has been played")
	fs.StringVar(&c.record, "record", "", "write every request (method, path, headers, body) as JSON lines on exit")
	cliflags.ValueName(fs, "record", "FILE")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

// runMockLLM serves a scripted mock LLM speaking the Anthropic, OpenAI Chat
// Completions, OpenAI Responses and Gemini streaming wire formats. The first
// line of stdout is the server's URL, so scripts can read it and point a
// provider's base URL at it.
func runMockLLM(ctx context.Context, env *cliEnv, args []string) int {
	var c mockllmCLI
	fs := newMockLLMFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "mockllm", err)
	}
	if c.help {
		fmt.Fprintf(env.stdout, "Usage: gopi mockllm --script FILE [--addr ADDR] [--check] [--exit-when-done] [--record FILE]\n\n")
		fmt.Fprintf(env.stdout, "Serve a scripted mock LLM for testing providers and the agent.\n\nFlags:\n")
		fmt.Fprint(env.stdout, cliflags.Help(fs))
		fmt.Fprint(env.stdout, mockllmScriptHelp)
		return exitMatch
	}
	if fs.NArg() > 0 {
		return fail(env, "mockllm", cliflags.Usagef("unexpected argument %q", fs.Arg(0)))
	}
	if c.script == "" {
		return fail(env, "mockllm", cliflags.Usagef("--script FILE is required"))
	}
	turns, err := mockllm.LoadScript(c.script)
	if err != nil {
		return fail(env, "mockllm", err)
	}
	if c.check {
		for i, t := range turns {
			fmt.Fprintf(env.stdout, "turn %d: %s\n", i+1, t.Summary())
		}
		return exitMatch
	}
	ep, err := mockllm.Listen(c.addr, turns...)
	if err != nil {
		return fail(env, "mockllm", fmt.Errorf("listening on %s: %w (pick another --addr)", c.addr, err))
	}
	url := ep.URL()
	fmt.Fprintln(env.stdout, url)
	fmt.Fprintf(env.stderr, "mockllm: playing %d turns; base URLs: anthropic %s, openai %s/v1, google %s/v1beta\n", len(turns), url, url, url)
	code := exitMatch
	if err := ep.Serve(ctx, c.exitWhenDone); err != nil {
		fmt.Fprintf(env.stderr, "gopi mockllm: server stopped: %v\n", err)
		code = exitError
	}
	srv := ep.Server()
	reqs := srv.Requests()
	fmt.Fprintf(env.stderr, "mockllm: %d requests, %d turns left unplayed\n", len(reqs), srv.Remaining())
	if c.record != "" {
		if err := mockllm.WriteRecord(c.record, reqs); err != nil {
			return fail(env, "mockllm", err)
		}
	}
	return code
}

// mockllmScriptHelp summarizes the script format (internal/mockllm
// ParseScript has the full description).
const mockllmScriptHelp = `
Script: {"turns": [TURN, ...]}; each request plays the next turn, in whichever
wire format it uses (POST …/messages, …/chat/completions, …/responses,
…/models/M:streamGenerateContent?alt=sse, Vertex AI's …/v1/projects/P/locations/L/
publishers/google/models/M:streamGenerateContent, Cloud Code Assist's
…/v1internal:streamGenerateContent, Bedrock's …/model/M/converse-stream).
A TURN has:
  blocks     [{"type": "text"|"thinking"|"redactedThinking"|"toolCall",
               "text", "signature", "id", "name",
               "arguments": JSON value | "argumentsRaw": "verbatim text"}]
  stop       "stop"|"length"|"toolUse"|"refusal" (default: toolUse if a tool is called)
  usage      {"input", "output", "cacheRead", "cacheWrite", "reasoning"}
  status     an HTTP error status instead of a stream, with "retryAfter" and "error"
  streamError, disconnectAfter N frames, stallAfter N frames, stallAfterDeltas N,
  chunkSize N runes, chunkDelay "20ms", headers {}, model, rawStop,
  reasoningField ("reasoning_content"|"reasoning"), format (expected request API)
`
