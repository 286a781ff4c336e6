package mockllm

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// postGoogleCloud sends body to path with the given headers.
func postGoogleCloud(t *testing.T, srv *Server, path, body string, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

const (
	vertexPath     = "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-x:streamGenerateContent?alt=sse"
	expressPath    = "/v1/publishers/google/models/gemini-x:streamGenerateContent?alt=sse"
	codeAssistPath = "/v1internal:streamGenerateContent?alt=sse"
	envelope       = `{"project":"p","model":"gemini-x","request":{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}}`
)

func TestGoogleCloudFormats(t *testing.T) {
	for path, want := range map[string]string{
		"/v1/projects/p/locations/l/publishers/google/models/m:streamGenerateContent": FormatVertex,
		"/v1/publishers/google/models/m:streamGenerateContent":                        FormatVertex,
		"/v1internal:streamGenerateContent":                                           FormatCodeAssist,
		"/v1beta/models/m:streamGenerateContent":                                      FormatGemini,
	} {
		if got := formatOf(path); got != want {
			t.Errorf("formatOf(%s) = %q, want %q", path, got, want)
		}
	}
}

func TestGoogleCloudAuthentication(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("a")}}, Turn{Blocks: []Block{Text("b")}}, Turn{Blocks: []Block{Text("c")}}, Turn{Blocks: []Block{Text("d")}})
	cases := []struct {
		path, body string
		headers    map[string]string
		status     int
	}{
		{vertexPath, `{}`, nil, 401},
		{vertexPath, `{}`, map[string]string{"X-Goog-Api-Key": "k"}, 401}, // project paths want OAuth
		{expressPath, `{}`, map[string]string{"X-Goog-Api-Key": "k"}, 200},
		{codeAssistPath, envelope, map[string]string{"Authorization": "Bearer "}, 401},
	}
	for _, c := range cases {
		status, body := postGoogleCloud(t, srv, c.path, c.body, c.headers)
		if status != c.status {
			t.Errorf("%s %v: %d %s, want %d", c.path, c.headers, status, body, c.status)
		}
		if status == 401 && !strings.Contains(body, `"status":"UNAUTHENTICATED"`) {
			t.Errorf("401 body is not a Google error: %s", body)
		}
	}
}

func TestCodeAssistEnvelope(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("hello")}}, Turn{Blocks: []Block{Text("never")}})
	status, body := postGoogleCloud(t, srv, codeAssistPath, envelope, map[string]string{"Authorization": "Bearer t"})
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	var chunks int
	for _, line := range strings.Split(body, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var c struct {
			Response map[string]any `json:"response"`
			TraceID  string         `json:"traceId"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil || c.Response["candidates"] == nil || c.TraceID == "" {
			t.Errorf("chunk outside the envelope: %s", data)
		}
		if c.Response["modelVersion"] != "gemini-x" {
			t.Errorf("model version %v, want the envelope's model", c.Response["modelVersion"])
		}
		chunks++
	}
	if chunks == 0 {
		t.Fatalf("no chunks in %q", body)
	}
	// A body outside the envelope is refused as the service would.
	status, body = postGoogleCloud(t, srv, codeAssistPath, `{"contents":[]}`, map[string]string{"Authorization": "Bearer t"})
	if status != 400 || !strings.Contains(body, "INVALID_ARGUMENT") {
		t.Errorf("bare body: %d %s", status, body)
	}
}
