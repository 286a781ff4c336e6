package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// isolateAgentEnv points the agent dir at a fresh directory holding
// modelsYML (when not empty) and clears every provider key variable, so
// the developer's environment cannot leak into the test.
func isolateAgentEnv(t *testing.T, modelsYML string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv(models.AgentDirEnv, dir)
	t.Setenv("PI_CACHE_RETENTION", "")
	reg, err := models.Load(models.Options{NoFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range reg.Providers() {
		for _, k := range p.KeyEnv {
			t.Setenv(k, "")
		}
		if p.BaseURLEnv != "" {
			t.Setenv(p.BaseURLEnv, "")
		}
	}
	if modelsYML != "" {
		if err := os.WriteFile(filepath.Join(dir, models.ModelsFile), []byte(modelsYML), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}
	code = run(context.Background(), env, args)
	return out.String(), errb.String(), code
}

func TestModelsShowsCredentials(t *testing.T) {
	isolateAgentEnv(t, "providers:\n  ollama:\n    models: [{id: \"qwen3:32b\", reasoning: true}]\n")
	t.Setenv("ANTHROPIC_API_KEY", "sk-test")
	// omp's catalogue lists Claude Haiku 4.5 under a dozen providers and
	// as a dated snapshot: name the one row.
	out, errOut, code := runCmd(t, "models", "anthropic/claude-haiku-4-5-20251001")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "MODEL                                NAME              API                 CONTEXT  OUTPUT  THINKING  INPUT       $IN/M  $OUT/M  KEY\n" +
		"anthropic/claude-haiku-4-5-20251001  Claude Haiku 4.5  anthropic-messages  200K     64K     yes       text,image  1.00   5.00    env ANTHROPIC_API_KEY\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out, _, _ = runCmd(t, "models", "gpt-5-nano")
	if !strings.Contains(out, "openai/gpt-5-nano") || !strings.HasSuffix(strings.TrimSpace(out), "-") {
		t.Errorf("model without key should show '-':\n%s", out)
	}
	t.Setenv("CURSOR_ACCESS_TOKEN", "x") // cursor-agent is not implemented: not available
	out, _, _ = runCmd(t, "models", "--available")
	if !strings.Contains(out, "ollama/qwen3:32b") || !strings.Contains(out, "local") || strings.Contains(out, "openai/") || strings.Contains(out, "cursor/") {
		t.Errorf("--available should list anthropic and local models only:\n%s", out)
	}
	out, _, code = runCmd(t, "models", "--json", "ollama/qwen3")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0]["keySource"] != "local" || rows[0]["id"] != "qwen3:32b" {
		t.Errorf("--json output:\n%s", out)
	}
	_, errOut, code = runCmd(t, "models", "zzqqxx")
	if code != 1 || !strings.Contains(errOut, `no models match "zzqqxx"`) {
		t.Errorf("no match: exit %d %q", code, errOut)
	}
}

func TestModelsBadConfig(t *testing.T) {
	dir := isolateAgentEnv(t, "providers:\n  x:\n    api: openai-chat\n")
	_, errOut, code := runCmd(t, "models")
	want := "gopi models: " + filepath.Join(dir, "models.yml") + ": providers.x.api: unknown API \"openai-chat\"; use one of anthropic-messages, azure-openai-responses, bedrock-converse-stream, google-gemini-cli, google-generative-ai, google-vertex, openai-codex-responses, openai-completions, openai-responses\n"
	if code != 2 || errOut != want {
		t.Errorf("exit %d\n%q\nwant\n%q", code, errOut, want)
	}
}

// mockConfig routes the first-party providers and one OpenAI-compatible
// provider to the mock server.
func mockConfig(url string) string {
	return "providers:\n" +
		"  anthropic:\n    baseUrl: " + url + "\n" +
		"  openai:\n    baseUrl: " + url + "/v1\n" +
		"  google:\n    baseUrl: " + url + "/v1beta\n" +
		"  local:\n    baseUrl: " + url + "/v1\n    api: openai-completions\n    apiKey: local-literal-key\n    models: [{id: mock-chat}]\n"
}

func TestAIStreamsEveryAPI(t *testing.T) {
	for _, tc := range []struct{ model, format string }{
		{"claude-sonnet-4-5", mockllm.FormatAnthropic},
		{"openai/gpt-5-mini", mockllm.FormatResponses},
		{"gemini-2.5-flash", mockllm.FormatGemini},
		{"local/mock-chat", mockllm.FormatCompletions},
	} {
		t.Run(tc.format, func(t *testing.T) {
			srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{
				mockllm.Thinking("Thinking it over.", "sig"),
				mockllm.Text("Hello from the mock, in several chunks."),
			}})
			isolateAgentEnv(t, mockConfig(srv.URL()))
			t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
			t.Setenv("OPENAI_API_KEY", "sk-oai")
			t.Setenv("GEMINI_API_KEY", "gem")
			out, errOut, code := runCmd(t, "ai", "-m", tc.model+":high", "--show-thinking", "-v", "say", "hello")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if out != "Hello from the mock, in several chunks.\n" {
				t.Errorf("stdout %q", out)
			}
			if !strings.Contains(errOut, "Thinking it over.\n") || !strings.Contains(errOut, "stop stop") {
				t.Errorf("stderr %q", errOut)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Format != tc.format {
				t.Fatalf("requests %+v", reqs)
			}
			if !strings.Contains(string(reqs[0].Body), "say hello") {
				t.Errorf("prompt not sent: %s", reqs[0].Body)
			}
		})
	}
}

// Words of the prompt that look like flags are prompt, not flags.
func TestAIPromptWordsAreNotFlags(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("It prints.")}})
	isolateAgentEnv(t, mockConfig(srv.URL()))
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	out, errOut, code := runCmd(t, "ai", "-m", "claude-sonnet-4-5", "what", "does", "-p", "do", "--json")
	if code != 0 || out != "It prints.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "what does -p do --json") {
		t.Errorf("prompt not sent whole: %+v", reqs)
	}
}

// A model named after the prompt gets a hint that flags come first.
func TestAIModelAfterPrompt(t *testing.T) {
	isolateAgentEnv(t, "")
	_, errOut, code := runCmd(t, "ai", "hello", "-m", "x")
	if code != 2 || !strings.Contains(errOut, "before the prompt") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestAIJSONEvents(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Hi.")}})
	isolateAgentEnv(t, mockConfig(srv.URL()))
	out, errOut, code := runCmd(t, "ai", "-m", "anthropic/claude-haiku-4-5", "--api-key", "sk-flag", "--json", "hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var types []string
	for _, l := range lines {
		var ev struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("bad JSON line %q", l)
		}
		types = append(types, ev.Type)
	}
	if got := strings.Join(types, " "); got != "start text_start text_delta text_end done" {
		t.Errorf("events: %s", got)
	}
	if got := srv.Requests()[0].Header.Get("x-api-key"); got != "sk-flag" {
		t.Errorf("--api-key not used: %q", got)
	}
}

func TestAIRetriesAndErrors(t *testing.T) {
	srv := mockllm.New(t).Script(
		mockllm.Turn{Status: 429, RetryAfter: "0", ErrorMessage: "slow down"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Recovered.")}},
	)
	isolateAgentEnv(t, mockConfig(srv.URL()))
	t.Setenv("ANTHROPIC_API_KEY", "k")
	out, errOut, code := runCmd(t, "ai", "-m", "claude-sonnet-4-5", "--retries", "2", "--retry-delay", "1ms", "hi")
	if code != 0 || out != "Recovered.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, errOut)
	}
	want := "gopi ai: HTTP 429 Too Many Requests: rate_limit_error: slow down; retry 1/2 in 1ms\ngopi ai: retry 1 succeeded\n"
	if errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}

	srv2 := mockllm.New(t).Script(mockllm.Turn{Status: 500, ErrorMessage: "boom"})
	isolateAgentEnv(t, mockConfig(srv2.URL()))
	t.Setenv("ANTHROPIC_API_KEY", "k")
	_, errOut, code = runCmd(t, "ai", "-m", "claude-sonnet-4-5", "hi")
	if code != 2 || !strings.Contains(errOut, "gopi ai: HTTP 500") || !strings.Contains(errOut, "boom") {
		t.Errorf("exit %d stderr %q", code, errOut)
	}
}

func TestAIUsageErrors(t *testing.T) {
	isolateAgentEnv(t, "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ai", "hi"}, "gopi ai: -m MODEL is required ('gopi models' lists them) (see 'gopi ai --help')\n"},
		{[]string{"ai", "-m", "nosuchmodelzz", "hi"}, "gopi ai: no model matches \"nosuchmodelzz\"; run 'gopi models' to list the models, or add one to models.yml\n"},
		{[]string{"ai", "-m", "gpt-4o", "hi"}, "gopi ai: no API key for provider \"openai\": set OPENAI_API_KEY, run `gopi login openai`, or pass --api-key\n"},
		{[]string{"ai", "-m", "gpt-4o", "-t", "huge", "hi"}, "gopi ai: unknown thinking level \"huge\"; use off, minimal, low, medium, high or xhigh (see 'gopi ai --help')\n"},
		{[]string{"ai", "-m", "gpt-4o"}, "gopi ai: empty prompt: give it as arguments or on stdin (see 'gopi ai --help')\n"},
	} {
		_, errOut, code := runCmd(t, tc.args...)
		if code != 2 || errOut != tc.want {
			t.Errorf("%v: exit %d\n got %q\nwant %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestModelsThenAIAgainstMock drives both commands against one mock
// server the way a user checks a new endpoint: `gopi models` must list the
// models.yml model and the re-pointed built-in ones at the mock's URL, and
// `gopi ai` must then stream from the listed model, with the exit status
// and messages of each way a reply can end.
func TestModelsThenAIAgainstMock(t *testing.T) {
	srv := mockllm.New(t).Script(
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Pong from the mock.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Cut off at the li")}, Stop: mockllm.StopLength},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("I can't help with that.")}, Stop: mockllm.StopRefusal},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("This reply is cut off by a dropped connection.")}, DisconnectAfter: 3},
	)
	isolateAgentEnv(t, mockConfig(srv.URL()))

	out, errOut, code := runCmd(t, "models", "--json", "local/")
	var rows []struct {
		Provider  string `json:"provider"`
		ID        string `json:"id"`
		API       string `json:"api"`
		BaseURL   string `json:"baseUrl"`
		KeySource string `json:"keySource"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 {
		t.Fatalf("models --json local/: exit %d %s\n%s", code, errOut, out)
	}
	if r := rows[0]; r.Provider != "local" || r.ID != "mock-chat" || r.API != "openai-completions" ||
		r.BaseURL != srv.URL()+"/v1" || r.KeySource == "-" {
		t.Errorf("listed %+v", r)
	}
	out, _, code = runCmd(t, "models", "--json", "anthropic/claude-sonnet-4-5")
	if code != 0 || !strings.Contains(out, `"baseUrl": "`+srv.URL()+`"`) {
		t.Errorf("built-in provider not re-pointed at the mock (exit %d):\n%s", code, out)
	}
	if len(srv.Requests()) != 0 {
		t.Fatal("gopi models sent a request")
	}
	model := rows[0].Provider + "/" + rows[0].ID

	for _, tc := range []struct {
		name, stdout, stderr string
		code                 int
	}{
		{"stop", "Pong from the mock.\n", "stop stop", 0},
		{"length", "Cut off at the li\n", "stop length", 0},
		{"refusal", "I can't help with that.\n", "gopi ai: the provider's content filter stopped the response (finish_reason content_filter)\n", 2},
		{"disconnect", "This reply is cu\n", "gopi ai: the response stream ended before the provider finished the message (connection closed mid-stream)", 2},
	} {
		out, errOut, code := runCmd(t, "ai", "-m", model, "-v", "ping")
		if code != tc.code || !strings.HasPrefix(out, tc.stdout) || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%s: exit %d (want %d)\nstdout %q (want prefix %q)\nstderr %q (want %q)", tc.name, code, tc.code, out, tc.stdout, errOut, tc.stderr)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for _, r := range reqs {
		if r.Format != mockllm.FormatCompletions || r.Header.Get("Authorization") != "Bearer local-literal-key" {
			t.Errorf("request %s %s auth %q", r.Format, r.Path, r.Header.Get("Authorization"))
		}
	}
}

// TestAIAnswerEndsWithOneNewline runs the command on an answer that ends
// with blank lines, and with -v on a server that reports no usage.
func TestAIAnswerEndsWithOneNewline(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Two lines\nand blank ones\n\n\n")}, NoUsage: true})
	isolateAgentEnv(t, mockConfig(srv.URL()))
	out, errOut, code := runCmd(t, "ai", "-m", "local/mock-chat", "-v", "hi")
	if code != 0 || out != "Two lines\nand blank ones\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "(estimated)") || strings.Contains(errOut, "tokens in 0 out 0") {
		t.Errorf("-v without server usage: %q", errOut)
	}
}

// TestAITimeouts: every provider API fails with a clear error, instead of
// hanging, when the server never answers (--first-byte-timeout) or stalls
// in the middle of a streamed answer (--idle-timeout).
func TestAITimeouts(t *testing.T) {
	silent := silentServer(t)
	for _, tc := range []struct{ model, format string }{
		{"claude-sonnet-4-5", mockllm.FormatAnthropic},
		{"openai/gpt-5-mini", mockllm.FormatResponses},
		{"gemini-2.5-flash", mockllm.FormatGemini},
		{"local/mock-chat", mockllm.FormatCompletions},
	} {
		t.Run(tc.format, func(t *testing.T) {
			srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Hello from the mock, in several chunks.")}, StallAfterDeltas: 1})
			setKeys := func() {
				for _, k := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"} {
					t.Setenv(k, "k")
				}
			}
			isolateAgentEnv(t, mockConfig(srv.URL()))
			setKeys()
			_, errOut, code := runCmd(t, "ai", "-m", tc.model, "--idle-timeout", "300ms", "hi")
			if code != 2 || !strings.Contains(errOut, "stream stalled: timed out after 300ms") {
				t.Errorf("mid-stream stall: exit %d stderr %q", code, errOut)
			}

			isolateAgentEnv(t, mockConfig(silent.URL))
			setKeys()
			_, errOut, code = runCmd(t, "ai", "-m", tc.model, "--first-byte-timeout", "300ms", "hi")
			if code != 2 || !strings.Contains(errOut, "did not start answering: timed out after 300ms") {
				t.Errorf("no answer: exit %d stderr %q", code, errOut)
			}
		})
	}
}

// The provider.*TimeoutMs settings reach gopi ai when no flag is given.
func TestAITimeoutSetting(t *testing.T) {
	silent := silentServer(t)
	dir := isolateAgentEnv(t, mockConfig(silent.URL))
	if err := os.WriteFile(filepath.Join(dir, "config.yml"), []byte("provider:\n  firstEventTimeoutMs: 250\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ANTHROPIC_API_KEY", "k")
	_, errOut, code := runCmd(t, "ai", "-m", "claude-sonnet-4-5", "hi")
	if code != 2 || !strings.Contains(errOut, "timed out after 250ms") {
		t.Errorf("exit %d stderr %q", code, errOut)
	}
	_, errOut, code = runCmd(t, "ai", "-m", "claude-sonnet-4-5", "--first-byte-timeout", "soon", "hi")
	if code != 2 || !strings.Contains(errOut, `--first-byte-timeout "soon" is not a duration`) {
		t.Errorf("bad flag: exit %d stderr %q", code, errOut)
	}
}

// silentServer accepts requests and never answers them: each handler
// returns once its client goes away or the test ends.
func silentServer(t *testing.T) *httptest.Server {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // the server notices a client leaving only once the body is read
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(func() {
		close(stop)
		srv.Close()
	})
	return srv
}
