package mockllm

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/golden"
)

// post sends a request of the given format to the server.
func post(t *testing.T, ctx context.Context, srv *Server, format, body string) (*http.Response, error) {
	t.Helper()
	path := map[string]string{
		FormatAnthropic:   "/v1/messages",
		FormatCompletions: "/v1/chat/completions",
		FormatResponses:   "/v1/responses",
		FormatGemini:      "/v1beta/models/gemini-test:streamGenerateContent?alt=sse",
	}[format]
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Test", "yes")
	return http.DefaultClient.Do(req)
}

const streamBody = `{"model":"test-model","stream":true,"stream_options":{"include_usage":true}}`

var allFormats = []string{FormatAnthropic, FormatCompletions, FormatResponses, FormatGemini}

// wireCases are rendered in every format and compared with
// testdata/wire/<case>.<format>.txt.
var wireCases = []struct {
	name string
	turn Turn
}{
	{"mixed", Turn{
		Blocks: []Block{
			Thinking("Let me look.", "sig-1"),
			Text("Reading both files."),
			ToolCall("read", `{"path":"a.go"}`),
			{Type: BlockToolCall, ID: "given_id", Name: "read", Arguments: `{"path":"b.go"}`},
		},
		Usage:     &Usage{Input: 50, Output: 40, CacheRead: 20, CacheWrite: 5, Reasoning: 10},
		ChunkSize: 6,
	}},
	{"length", Turn{Blocks: []Block{Text("cut sho")}, Stop: StopLength, Usage: &Usage{Input: 3, Output: 2}}},
	{"refusal", Turn{Blocks: []Block{Text("I can't help with that.")}, Stop: StopRefusal, ChunkSize: 100}},
	{"redacted-thinking", Turn{Blocks: []Block{{Type: BlockRedactedThinking, Signature: "opaque-data"}, Text("Done.")}}},
	{"rate-limited", Turn{Status: 429, RetryAfter: "7", ErrorMessage: "slow down"}},
	{"stream-error", Turn{Blocks: []Block{Text("partial")}, StreamError: true}},
	{"no-usage", Turn{Blocks: []Block{Text("Counted by the client.")}, Usage: &Usage{Input: 5, Output: 5}, NoUsage: true}},
}

func TestWireGolden(t *testing.T) {
	for _, c := range wireCases {
		for _, format := range allFormats {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				srv := New(t).Script(c.turn)
				resp, err := post(t, context.Background(), srv, format, streamBody)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				body, err := io.ReadAll(resp.Body)
				if err != nil {
					t.Fatal(err)
				}
				var got strings.Builder
				fmt.Fprintf(&got, "HTTP %d\n", resp.StatusCode)
				for _, h := range []string{"Content-Type", "Retry-After", "Request-Id", "X-Request-Id"} {
					if v := resp.Header.Get(h); v != "" {
						fmt.Fprintf(&got, "%s: %s\n", h, v)
					}
				}
				got.WriteString("\n")
				got.Write(body)
				golden.Check(t, filepath.Join("testdata", "wire", c.name+"."+format+".txt"), got.String())
			})
		}
	}
}

func TestRecordsRequests(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("a")}}, Turn{Blocks: []Block{Text("b")}})
	for _, f := range []string{FormatCompletions, FormatGemini} {
		resp, err := post(t, context.Background(), srv, f, `{"model":"m","stream":true,"x":1}`)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2", len(reqs))
	}
	if reqs[0].Format != FormatCompletions || reqs[0].Path != "/v1/chat/completions" || reqs[0].Header.Get("X-Test") != "yes" {
		t.Errorf("first request recorded as %+v", reqs[0])
	}
	if reqs[1].Format != FormatGemini || reqs[1].RawQuery != "alt=sse" || reqs[1].JSON()["x"] != float64(1) {
		t.Errorf("second request recorded as %+v", reqs[1])
	}
	if srv.Remaining() != 0 {
		t.Errorf("Remaining = %d, want 0", srv.Remaining())
	}
	if err := srv.WaitPlayed(context.Background()); err != nil || srv.Finished() != 2 {
		t.Errorf("Finished = %d (%v), want 2", srv.Finished(), err)
	}
	// A third request finds the script exhausted.
	resp, err := post(t, context.Background(), srv, FormatAnthropic, streamBody)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 500 || !strings.Contains(string(body), "script exhausted after 2 turns") {
		t.Errorf("exhausted script answered %d %s", resp.StatusCode, body)
	}
}

func TestMisuseErrors(t *testing.T) {
	srv := New(t).Script(Turn{Format: FormatResponses}, Turn{}, Turn{})
	cases := []struct {
		format, body string
		status       int
		want         string
	}{
		{FormatAnthropic, streamBody, 400, "turn 1 expects a openai-responses request, got anthropic-messages"},
		{FormatAnthropic, `{"model":"m"}`, 400, `set \"stream\": true`},
		{FormatCompletions, `not json`, 400, "not a JSON object"},
	}
	for _, c := range cases {
		resp, err := post(t, context.Background(), srv, c.format, c.body)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("%s %s: got %d %s, want %d containing %q", c.format, c.body, resp.StatusCode, body, c.status, c.want)
		}
	}
	resp, err := http.Post(srv.URL()+"/v1/embeddings", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown path answered %d, want 404", resp.StatusCode)
	}
}

func TestDisconnectMidStream(t *testing.T) {
	for _, format := range allFormats {
		t.Run(format, func(t *testing.T) {
			srv := New(t).Script(Turn{Blocks: []Block{Text("hello there, a long reply")}, DisconnectAfter: 3})
			resp, err := post(t, context.Background(), srv, format, streamBody)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			data, err := io.ReadAll(resp.Body)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("reading a cut stream: err = %v, want unexpected EOF (got %q)", err, data)
			}
			if n := strings.Count(string(data), "data: "); n != 3 {
				t.Errorf("got %d frames before the cut, want 3", n)
			}
		})
	}
}

func TestStallUntilClientGivesUp(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("hello there")}, StallAfter: 2})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := post(t, ctx, srv, FormatAnthropic, streamBody)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	frames := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			frames++
			if frames == 2 {
				cancel()
			}
		}
	}
	if frames != 2 {
		t.Errorf("got %d frames, want 2 before the stall", frames)
	}
}

func TestChunkDelayHonoursCancel(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("x")}, ChunkDelay: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := post(t, ctx, srv, FormatCompletions, streamBody)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil {
		t.Fatal("reading a cancelled slow stream succeeded")
	}
}

func TestNoUsageChunkWithoutIncludeUsage(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("hi")}})
	resp, err := post(t, context.Background(), srv, FormatCompletions, `{"model":"m","stream":true}`)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(body), `"usage"`) {
		t.Errorf("usage sent without stream_options.include_usage:\n%s", body)
	}
	if !strings.HasSuffix(string(body), "data: [DONE]\n\n") {
		t.Errorf("stream does not end with [DONE]:\n%s", body)
	}
}

func TestStallAfterDeltas(t *testing.T) {
	for _, format := range allFormats {
		t.Run(format, func(t *testing.T) {
			srv := New(t).Script(Turn{Blocks: []Block{Text("abcdefgh" + "ijklmnop" + "qrst")}, StallAfterDeltas: 2})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			resp, err := post(t, ctx, srv, format, streamBody)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			var seen strings.Builder
			for sc.Scan() {
				seen.WriteString(sc.Text() + "\n")
				if strings.Contains(seen.String(), "ijklmnop") {
					cancel()
				}
			}
			if strings.Contains(seen.String(), "qrst") {
				t.Errorf("content after the stall point was sent:\n%s", seen.String())
			}
		})
	}
}

func TestExtraHeadersAndModelEcho(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("x")}, Headers: map[string]string{"X-Ratelimit-Remaining-Requests": "7"}, Model: "served-model"})
	resp, err := post(t, context.Background(), srv, FormatAnthropic, streamBody)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("X-Ratelimit-Remaining-Requests") != "7" || resp.Header.Get("Request-Id") != "req_mock_1" {
		t.Errorf("headers = %v", resp.Header)
	}
	if !strings.Contains(string(body), `"model":"served-model"`) {
		t.Errorf("model not echoed:\n%s", body)
	}
}

func TestResponsesIncompleteReason(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"content_filter", `"status":"incomplete"`},
		{"max_output_tokens", `"status":"incomplete"`},
		{"cancelled", `"status":"cancelled"`},
	} {
		srv := New(t).Script(Turn{Blocks: []Block{Text("x")}, RawStop: c.raw})
		resp, err := post(t, context.Background(), srv, FormatResponses, streamBody)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s := string(body)
		if !strings.Contains(s, c.want) {
			t.Errorf("rawStop %s: no %s in\n%s", c.raw, c.want, s)
		}
		if c.want == `"status":"incomplete"` && (!strings.Contains(s, "event: response.incomplete\n") ||
			!strings.Contains(s, `"incomplete_details":{"reason":"`+c.raw+`"}`)) {
			t.Errorf("rawStop %s: not a response.incomplete with that reason:\n%s", c.raw, s)
		}
	}
}

// TestMatchRoutesByBody: turns with Match go to the requests that contain
// their text, whatever the order of arrival; unmatched turns take the rest.
func TestMatchRoutesByBody(t *testing.T) {
	srv := New(t).Script(
		Turn{Blocks: []Block{Text("alpha")}, Match: "ALPHA"},
		Turn{Blocks: []Block{Text("for beta")}, Match: "BETA"},
		Turn{Blocks: []Block{Text("anyone")}},
	)
	ask := func(marker string) (int, string) {
		resp, err := post(t, context.Background(), srv, FormatAnthropic, `{"model":"m","stream":true,"marker":"`+marker+`"}`)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if _, body := ask("BETA"); !strings.Contains(body, "for beta") {
		t.Errorf("BETA got %s", body)
	}
	if _, body := ask("GAMMA"); !strings.Contains(body, "anyone") {
		t.Errorf("GAMMA got %s", body)
	}
	if code, body := ask("DELTA"); code != 500 || !strings.Contains(body, "no unplayed turn matches request 3 (2 of 3 turns played)") {
		t.Errorf("DELTA got %d %s", code, body)
	}
	if _, body := ask("ALPHA"); !strings.Contains(body, `"text":"alpha"`) {
		t.Errorf("ALPHA got %s", body)
	}
	if srv.Remaining() != 0 {
		t.Errorf("Remaining = %d", srv.Remaining())
	}
	turns, err := ParseScript([]byte(`{"turns":[{"blocks":[{"type":"text","text":"x"}],"match":"M"}]}`))
	if err != nil || turns[0].Match != "M" {
		t.Fatal(turns, err)
	}
}

// Overflow answers every format with HTTP 400 and the overflow text.
func TestOverflowTurn(t *testing.T) {
	srv := New(t)
	for _, f := range allFormats {
		srv.Script(Overflow())
		resp, err := post(t, context.Background(), srv, f, streamBody)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || !strings.Contains(string(body), OverflowMessage) {
			t.Errorf("%s: %d %s", f, resp.StatusCode, body)
		}
	}
}
