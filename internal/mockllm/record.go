package mockllm

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// recordedRequest is one line of a record (WriteRecord).
type recordedRequest struct {
	Format string              `json:"format"`
	Method string              `json:"method"`
	Path   string              `json:"path"`
	Query  string              `json:"query,omitempty"`
	Header map[string][]string `json:"header"`
	Body   json.RawMessage     `json:"body"`
}

// WriteRecord writes requests to path as JSON lines (format, method,
// path, query, headers, body), atomically: `gopi mockllm --record`. A JSON body is
// kept as the client sent it (no HTML escaping; only insignificant
// whitespace is dropped), so a record can serve as a byte-exact fixture.
func WriteRecord(path string, reqs []Request) error {
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
