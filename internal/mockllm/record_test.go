package mockllm

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// A record keeps a JSON body as sent (no HTML escaping) and a body that is
// not JSON as a string.
func TestWriteRecord(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "record.jsonl")
	reqs := []Request{
		{Format: FormatAnthropic, Method: "POST", Path: "/v1/messages", Header: http.Header{"X-A": {"1"}}, Body: []byte(`{"system":"<rules> & more"}`)},
		{Method: "GET", Path: "/x", RawQuery: "a=1", Body: []byte("not json")},
	}
	if err := WriteRecord(path, reqs); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format":"anthropic-messages","method":"POST","path":"/v1/messages","header":{"X-A":["1"]},"body":{"system":"<rules> & more"}}` + "\n" +
		`{"format":"","method":"GET","path":"/x","query":"a=1","header":null,"body":"not json"}` + "\n"
	if string(got) != want {
		t.Fatalf("record:\n%s\nwant:\n%s", got, want)
	}
	if err := WriteRecord(filepath.Join(t.TempDir(), "missing", "r.jsonl"), reqs); err == nil {
		t.Fatal("wrote into a missing directory")
	}
}
