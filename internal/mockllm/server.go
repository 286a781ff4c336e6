package mockllm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// TB is the part of testing.TB the server uses; *testing.T satisfies it.
type TB interface {
	Helper()
	Cleanup(func())
}

// Request is one recorded request.
type Request struct {
	Index    int         // 0-based arrival order
	Format   string      // Format* constant, or "" for an unrecognized path
	Method   string      // HTTP method
	Path     string      // URL path
	RawQuery string      // URL query without '?'
	Header   http.Header // request headers
	Body     []byte      // request body
}

// JSON decodes the request body into a generic map (nil when it is not a
// JSON object).
func (r Request) JSON() map[string]any {
	var m map[string]any
	if json.Unmarshal(r.Body, &m) != nil {
		return nil
	}
	return m
}

// Server plays a script of turns over HTTP. It is safe for concurrent use;
// requests consume turns in arrival order (each the first unplayed turn
// whose Match it satisfies).
type Server struct {
	mu       sync.Mutex
	turns    []Turn
	played   []bool // turns already played
	nPlayed  int
	requests []Request
	finished int           // requests whose answer is complete
	changed  chan struct{} // closed and replaced whenever finished grows
	ts       *httptest.Server
	// azureDeployments are the deployments Azure paths may name (nil: any).
	azureDeployments []string
}

// New starts a server on a loopback port. With a non-nil t the server is
// closed when the test ends; with nil the caller calls Close.
func New(t TB) *Server {
	s := &Server{}
	s.ts = httptest.NewServer(s)
	if t != nil {
		t.Helper()
		t.Cleanup(s.Close)
	}
	return s
}

// NewHandler returns a server that is not listening: serve it with your own
// http.Server (as Endpoint does). URL is empty for such a server.
func NewHandler() *Server { return &Server{} }

// Script appends turns to the script.
func (s *Server) Script(turns ...Turn) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
	s.played = append(s.played, make([]bool, len(turns))...)
	return s
}

// URL returns the server's root URL (http://127.0.0.1:PORT) without a
// trailing slash; append the API's base path as a real base URL would have
// it (e.g. URL()+"/v1" for OpenAI).
func (s *Server) URL() string {
	if s.ts == nil {
		return ""
	}
	return s.ts.URL
}

// Close shuts the server down, cutting open streams.
func (s *Server) Close() {
	if s.ts != nil {
		s.ts.CloseClientConnections()
		s.ts.Close()
	}
}

// Requests returns a copy of every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Finished returns how many answers have been written to the end.
func (s *Server) Finished() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.finished
}

// Remaining returns how many scripted turns have not been played.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.nPlayed
}

// markFinished counts a completed answer and wakes WaitPlayed.
func (s *Server) markFinished() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finished++
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
}

// WaitPlayed blocks until every scripted turn has been played and its answer
// completed, or ctx ends.
func (s *Server) WaitPlayed(ctx context.Context) error {
	for {
		s.mu.Lock()
		if s.nPlayed == len(s.turns) && s.finished >= len(s.requests) {
			s.mu.Unlock()
			return nil
		}
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// formatOf maps a request path to its wire format.
func formatOf(path string) string {
	if f := googleCloudFormat(path); f != "" {
		return f
	}
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return FormatCompletions
	case strings.HasSuffix(path, "/responses"):
		return FormatResponses
	case strings.HasSuffix(path, "/messages"):
		return FormatAnthropic
	case strings.HasSuffix(path, ":streamGenerateContent"):
		return FormatGemini
	case strings.HasSuffix(path, "/converse-stream"):
		return FormatBedrock
	}
	return ""
}

// ServeHTTP records the request and answers it with the next turn.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer s.markFinished()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "mockllm: reading request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	format := formatOf(r.URL.Path)
	refused := s.checkDialect(r, body)
	s.mu.Lock()
	index := len(s.requests)
	s.requests = append(s.requests, Request{
		Index: index, Format: format, Method: r.Method, Path: r.URL.Path,
		RawQuery: r.URL.RawQuery, Header: r.Header.Clone(), Body: body,
	})
	var turn *Turn
	played, total, number := s.nPlayed, len(s.turns), 0
	if format != "" && r.Method == http.MethodPost && refused == nil {
		for i := range s.turns {
			if !s.played[i] && (s.turns[i].Match == "" || bytes.Contains(body, []byte(s.turns[i].Match))) {
				turn, number = &s.turns[i], i+1
				s.played[i] = true
				s.nPlayed++
				break
			}
		}
	}
	s.mu.Unlock()

	switch {
	case r.Method != http.MethodPost:
		writeMockError(w, format, http.StatusMethodNotAllowed, fmt.Sprintf("mockllm: %s is not supported; send POST", r.Method))
		return
	case format == "":
		writeMockError(w, format, http.StatusNotFound, fmt.Sprintf("mockllm: no API at %s; use …/messages, …/chat/completions, …/responses, …/models/M:streamGenerateContent, …/v1internal:streamGenerateContent or …/model/M/converse-stream", r.URL.Path))
		return
	case refused != nil:
		refused.write(w)
		return
	case turn == nil && played < total:
		writeMockError(w, format, http.StatusInternalServerError, fmt.Sprintf("mockllm: no unplayed turn matches request %d (%d of %d turns played)", index+1, played, total))
		return
	case turn == nil:
		writeMockError(w, format, http.StatusInternalServerError, fmt.Sprintf("mockllm: script exhausted after %d turns; request %d has no turn to play", played, index+1))
		return
	case turn.Format != "" && turn.Format != format:
		writeMockError(w, format, http.StatusBadRequest, fmt.Sprintf("mockllm: turn %d expects a %s request, got %s", number, turn.Format, format))
		return
	}
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		writeMockError(w, format, http.StatusBadRequest, "mockllm: request body is not a JSON object: "+err.Error())
		return
	}
	if turn.Hold != nil {
		select {
		case <-turn.Hold:
		case <-r.Context().Done():
			return
		}
	}
	play(w, r, format, req, turn, index)
}

// play answers one request with a turn.
func play(w http.ResponseWriter, r *http.Request, format string, req map[string]any, turn *Turn, index int) {
	for k, v := range turn.Headers {
		w.Header().Set(k, v)
	}
	setRequestIDHeader(w, format, index)
	if turn.Status != 0 {
		if turn.RetryAfter != "" {
			w.Header().Set("Retry-After", turn.RetryAfter)
		}
		writeError(w, format, turn.Status, turn.ErrorMessage, turn.RetryAfter)
		return
	}
	model := turn.Model
	if model == "" {
		model = requestModel(format, r, req)
	}
	if status, msg := checkGoogleCloud(format, r, req); status != 0 {
		writeError(w, format, status, msg, "")
		return
	}
	if isGoogleFormat(format) && r.URL.Query().Get("alt") != "sse" {
		writeMockError(w, format, http.StatusBadRequest, "mockllm: streamGenerateContent needs ?alt=sse (the JSON-array stream is not supported)")
		return
	}
	if !isGoogleFormat(format) && format != FormatBedrock { // those stream by URL
		if stream, _ := req["stream"].(bool); !stream {
			writeMockError(w, format, http.StatusBadRequest, `mockllm: only streaming requests are supported; set "stream": true`)
			return
		}
	}
	contentType := "text/event-stream"
	if format == FormatBedrock {
		contentType = bedrockContentType
	}
	sw := newStreamWriter(w, r, turn, contentType)
	defer sw.finish()
	switch format {
	case FormatAnthropic:
		playAnthropic(sw, turn, model, index)
	case FormatCompletions:
		playCompletions(sw, turn, model, index, includeUsage(req))
	case FormatResponses:
		playResponses(sw, turn, model, index)
	case FormatGemini, FormatVertex:
		playGemini(sw, turn, model, index)
	case FormatCodeAssist:
		playGeminiChunks(sw, turn, model, index, codeAssistEnvelope(index))
	case FormatBedrock:
		playBedrock(sw, turn, index)
	}
}

// requestModel finds the model the request asked for.
func requestModel(format string, r *http.Request, req map[string]any) string {
	if format == FormatBedrock {
		return bedrockModel(r.URL)
	}
	if format == FormatGemini || format == FormatVertex {
		p := r.URL.Path
		if i := strings.LastIndex(p, "/models/"); i >= 0 {
			return strings.TrimSuffix(p[i+len("/models/"):], ":streamGenerateContent")
		}
		return ""
	}
	m, _ := req["model"].(string)
	return m
}

// includeUsage reports whether a Chat Completions request asked for the
// trailing usage chunk.
func includeUsage(req map[string]any) bool {
	so, _ := req["stream_options"].(map[string]any)
	v, _ := so["include_usage"].(bool)
	return v
}

// setRequestIDHeader sets the request-id header each API sends.
func setRequestIDHeader(w http.ResponseWriter, format string, index int) {
	id := fmt.Sprintf("req_mock_%d", index+1)
	switch format {
	case FormatAnthropic:
		w.Header().Set("Request-Id", id)
	case FormatCompletions, FormatResponses:
		w.Header().Set("X-Request-Id", id)
	case FormatBedrock:
		w.Header().Set("X-Amzn-Requestid", id)
	}
}
