package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

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
	valueName(fs, "script", "FILE")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "listen address (default 127.0.0.1:0, a free port)")
	valueName(fs, "addr", "ADDR")
	fs.BoolVar(&c.check, "check", false, "validate the script, print its turns and exit")
	fs.BoolVar(&c.exitWhenDone, "exit-when-done", false, "exit once every turn has been played")
	fs.StringVar(&c.record, "record", "", "write every request (method, path, headers, body) as JSON lines on exit")
	valueName(fs, "record", "FILE")
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
	if err := parseFlags(fs, args); err != nil {
		return fail(env, "mockllm", err)
	}
	if c.help {
		fmt.Fprintf(env.stdout, "Usage: gopi mockllm --script FILE [--addr ADDR] [--check] [--exit-when-done] [--record FILE]\n\n")
		fmt.Fprintf(env.stdout, "Serve a scripted mock LLM for testing providers and the agent.\n\nFlags:\n")
		fmt.Fprint(env.stdout, pflagHelp(fs))
		fmt.Fprint(env.stdout, mockllmScriptHelp)
		return exitMatch
	}
	if fs.NArg() > 0 {
		return fail(env, "mockllm", usagef("unexpected argument %q", fs.Arg(0)))
	}
	if c.script == "" {
		return fail(env, "mockllm", usagef("--script FILE is required"))
	}
	turns, err := mockllm.LoadScript(c.script)
	if err != nil {
		return fail(env, "mockllm", err)
	}
	if c.check {
		for i, t := range turns {
			fmt.Fprintf(env.stdout, "turn %d: %s\n", i+1, describeTurn(t))
		}
		return exitMatch
	}

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fail(env, "mockllm", fmt.Errorf("listening on %s: %w (pick another --addr)", c.addr, err))
	}
	srv := mockllm.NewHandler().Script(turns...)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()

	url := "http://" + ln.Addr().String()
	fmt.Fprintln(env.stdout, url)
	fmt.Fprintf(env.stderr, "mockllm: playing %d turns; base URLs: anthropic %s, openai %s/v1, google %s/v1beta\n", len(turns), url, url, url)

	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	if c.exitWhenDone {
		go func() {
			if srv.WaitPlayed(waitCtx) == nil {
				close(done)
			}
		}()
	}
	code := exitMatch
	select {
	case <-ctx.Done():
	case <-done:
	case err := <-served:
		fmt.Fprintf(env.stderr, "gopi mockllm: server stopped: %v\n", err)
		code = exitError
	}
	shutdownCtx, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	_ = hs.Shutdown(shutdownCtx)

	reqs := srv.Requests()
	fmt.Fprintf(env.stderr, "mockllm: %d requests, %d turns left unplayed\n", len(reqs), srv.Remaining())
	if c.record != "" {
		if err := writeRecord(c.record, reqs); err != nil {
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
…/models/M:streamGenerateContent?alt=sse). A TURN has:
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

// describeTurn summarizes a turn for --check.
func describeTurn(t mockllm.Turn) string {
	if t.Status != 0 {
		s := fmt.Sprintf("HTTP %d", t.Status)
		if t.RetryAfter != "" {
			s += " retry-after " + t.RetryAfter
		}
		return s
	}
	var parts []string
	for _, b := range t.Blocks {
		switch b.Type {
		case mockllm.BlockToolCall:
			parts = append(parts, fmt.Sprintf("toolCall %s %s", b.Name, b.Arguments))
		default:
			parts = append(parts, fmt.Sprintf("%s %q", b.Type, b.Text))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "empty reply")
	}
	stop := t.Stop
	if stop == "" {
		stop = "auto"
	}
	s := strings.Join(parts, ", ") + "; stop " + stop
	if t.StreamError {
		s += "; stream error"
	}
	if t.DisconnectAfter > 0 {
		s += fmt.Sprintf("; disconnect after %d frames", t.DisconnectAfter)
	}
	if t.StallAfter > 0 {
		s += fmt.Sprintf("; stall after %d frames", t.StallAfter)
	}
	return s
}

// recordedRequest is one line of --record output.
type recordedRequest struct {
	Format string              `json:"format"`
	Method string              `json:"method"`
	Path   string              `json:"path"`
	Query  string              `json:"query,omitempty"`
	Header map[string][]string `json:"header"`
	Body   json.RawMessage     `json:"body"`
}

// writeRecord writes requests as JSON lines, atomically. A JSON body is
// kept as the client sent it (no HTML escaping; only insignificant
// whitespace is dropped), so a record can serve as a byte-exact fixture.
func writeRecord(path string, reqs []mockllm.Request) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range reqs {
		body := json.RawMessage(r.Body)
		if !json.Valid(r.Body) {
			body, _ = json.Marshal(string(r.Body))
		}
		if err := enc.Encode(recordedRequest{r.Format, r.Method, r.Path, r.RawQuery, r.Header, body}); err != nil {
			return fmt.Errorf("encoding request %d: %w", r.Index+1, err)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".mockllm-record-*")
	if err != nil {
		return fmt.Errorf("writing record: %w", err)
	}
	_, werr := tmp.WriteString(b.String())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing record %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing record %s: %w", path, err)
	}
	return nil
}
