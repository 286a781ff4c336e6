package websearch

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"
)

// answerTransport answers every request with one canned body.
type answerTransport struct {
	status int
	body   []byte
}

func (a answerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: a.status, Header: http.Header{"Retry-After": {"7"}}, Body: io.NopCloser(bytes.NewReader(a.body)), Request: r}, nil
}

// fuzzOrder are the providers the fuzzer picks from.
var fuzzOrder = []ID{Brave, Tavily, Perplexity, Jina, Anthropic, Exa, Parallel, Kagi, SearXNG, Kimi, Synthetic, Zai, Codex, Gemini}

// Whatever a provider answers, parsing it neither panics nor loops, a
// failure is one line, and the rendered text is valid UTF-8 when the
// answer was.
func FuzzProviderAnswer(f *testing.F) {
	for i, id := range fuzzOrder {
		data, err := os.ReadFile(filepath.Join("testdata", string(id)+".json"))
		if os.IsNotExist(err) {
			data, err = os.ReadFile(filepath.Join("testdata", string(id)+".sse"))
		}
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(i), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, which uint8, failing bool) {
		id := fuzzOrder[int(which)%len(fuzzOrder)]
		s := New(allKeys("http://provider.invalid"), Options{Now: func() time.Time { return testNow }, Keys: fakeKeys{"google-gemini-cli": googleLogin}})
		status := 200
		if failing {
			status = 429
		}
		s.t.client.Transport = answerTransport{status: status, body: body}
		r, err := s.Search(context.Background(), string(id), Params{Query: "q", Limit: 3})
		if err != nil {
			if bytes.ContainsRune([]byte(err.Error()), '\n') {
				t.Fatalf("multi-line error: %q", err)
			}
			return
		}
		text := Text(r)
		if utf8.Valid(body) && !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8 from valid input: %q", text)
		}
	})
}
