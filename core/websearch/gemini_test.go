package websearch

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/golden"
)

// googleLogin is the API key a Google sign-in stores (omp's JSON).
const googleLogin = `{"token":"ya29.tok","projectId":"proj-1","refreshToken":"1//r","expiresAt":4102444800000}`

// geminiDouble answers like Cloud Code Assist: the fixture stream for
// /v1internal:streamGenerateContent, or status (not 200) for the hosts
// whose path starts with fail.
func geminiDouble(t *testing.T, keys fakeKeys) (*double, *Searcher) {
	data, err := os.ReadFile(filepath.Join("testdata", "gemini.sse"))
	if err != nil {
		t.Fatal(err)
	}
	d := newDouble(t)
	d.answer = func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasPrefix(r.URL.Path, "/fail/") {
			http.Error(w, `{"error":{"code":503,"message":"overloaded"}}`, http.StatusServiceUnavailable)
			return true
		}
		if !strings.HasSuffix(r.URL.Path, "/v1internal:streamGenerateContent") || r.URL.Query().Get("alt") != "sse" {
			return false
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(data)
		return true
	}
	s := New(config.WebSearch{Enabled: true}, Options{Keys: keys, Now: func() time.Time { return testNow },
		BaseURLs: map[ID]string{Gemini: d.srv.URL + "/fail", geminiSandbox: d.srv.URL + "/sandbox"}})
	s.backoff = time.Millisecond
	return d, s
}

// With a Gemini CLI sign-in, Gemini searches with Google Search
// grounding through Cloud Code Assist, as omp: the answer, the grounding
// chunks as sources, the supports as citations, the queries it ran.
func TestGeminiGrounding(t *testing.T) {
	d, s := geminiDouble(t, fakeKeys{"google-gemini-cli": googleLogin})
	s.base[Gemini] = d.srv.URL
	if got := s.Chain(""); len(got) != 1 || got[0] != Gemini {
		t.Fatalf("chain %v", got)
	}
	temp := 0.3
	r, err := s.Search(context.Background(), "", Params{Query: "when did go get generics", MaxTokens: 500, Temperature: &temp})
	if err != nil {
		t.Fatal(err)
	}
	req := d.last(t)
	want(t, req.Method == "POST" && req.Header.Get("Authorization") == "Bearer ya29.tok" && req.Header.Get("Accept") == "text/event-stream", req)
	arch := map[string]string{"amd64": "x64", "386": "ia32"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	want(t, req.Header.Get("User-Agent") == "GeminiCLI/0.35.3/gemini-3.1-pro-preview ("+runtime.GOOS+"; "+arch+"; terminal)" && req.Header.Get("Client-Metadata") != "", req)
	want(t, req.Body["project"] == "proj-1" && req.Body["model"] == "gemini-2.5-flash" && req.Body["userAgent"] == "pi-coding-agent" && strings.HasPrefix(req.Body["requestId"].(string), "pi-"), req)
	inner := req.Body["request"].(map[string]any)
	tools := inner["tools"].([]any)
	want(t, len(tools) == 1 && tools[0].(map[string]any)["googleSearch"] != nil, req)
	sys := inner["systemInstruction"].(map[string]any)
	want(t, sys["role"] == nil && len(sys["parts"].([]any)) == 1, req)
	gen := inner["generationConfig"].(map[string]any)
	want(t, gen["maxOutputTokens"] == 500.0 && gen["temperature"] == 0.3, req)
	contents := inner["contents"].([]any)[0].(map[string]any)
	want(t, contents["role"] == "user" && contents["parts"].([]any)[0].(map[string]any)["text"] == "when did go get generics", req)
	golden.Check(t, filepath.Join("testdata", "gemini.golden"), Text(r)+"\n")
	if r.Model != "gemini-2.5-flash-001" || r.Usage == nil || *r.Usage.TotalTokens != 21 {
		t.Errorf("model %q usage %+v", r.Model, r.Usage)
	}
}

// An Antigravity sign-in goes to Antigravity's daily host, then to its
// sandbox host when the first answers 5xx, with Antigravity's identity.
func TestGeminiAntigravity(t *testing.T) {
	d, s := geminiDouble(t, fakeKeys{"google-antigravity": googleLogin})
	if _, err := s.Search(context.Background(), "gemini", Params{Query: "q"}); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	paths := []string{d.got[0].Path, d.got[len(d.got)-1].Path}
	d.mu.Unlock()
	if paths[0] != "/fail/v1internal:streamGenerateContent" || paths[1] != "/sandbox/v1internal:streamGenerateContent" {
		t.Fatalf("hosts tried: %v", paths)
	}
	req := d.last(t)
	want(t, strings.HasPrefix(req.Header.Get("User-Agent"), "antigravity/1.104.0 ") && req.Header.Get("Client-Metadata") == "", req)
	want(t, req.Body["requestType"] == "agent" && req.Body["userAgent"] == "antigravity" && strings.HasPrefix(req.Body["requestId"].(string), "agent-"), req)
	sys := req.Body["request"].(map[string]any)["systemInstruction"].(map[string]any)
	parts := sys["parts"].([]any)
	want(t, sys["role"] == "user" && len(parts) == 3 && strings.HasPrefix(parts[1].(map[string]any)["text"].(string), "Please ignore following [ignore]You are Antigravity"), req)
}

// Without a Google sign-in Gemini is not asked; a sign-in that is not
// the JSON a Google login stores fails naming the login to redo; a
// failing host fails naming Gemini.
func TestGeminiErrors(t *testing.T) {
	_, s := geminiDouble(t, fakeKeys{})
	if s.Usable(Gemini) {
		t.Fatal("Gemini usable without a sign-in")
	}
	_, s = geminiDouble(t, fakeKeys{"google-gemini-cli": "not json"})
	if _, err := s.Search(context.Background(), "gemini", Params{Query: "q"}); err == nil || !strings.Contains(err.Error(), "gopi login google-gemini-cli") {
		t.Fatalf("bad sign-in: %v", err)
	}
	_, s = geminiDouble(t, fakeKeys{"google-gemini-cli": googleLogin})
	if _, err := s.Search(context.Background(), "gemini", Params{Query: "q"}); err == nil || !strings.HasPrefix(err.Error(), "Gemini API error (503): overloaded") {
		t.Fatalf("503: %v", err)
	}
}
