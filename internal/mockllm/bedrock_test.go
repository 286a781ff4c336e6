package mockllm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/gopi-agent/gopi/internal/golden"
)

// bedrockPath is a ConverseStream path with an escaped model id, as the
// SDK sends it.
const bedrockPath = "/model/anthropic.claude-test-v1%3A0/converse-stream"

// postBedrock sends a ConverseStream request body to the server.
func postBedrock(t *testing.T, ctx context.Context, srv *Server, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+bedrockPath, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// decodeEventStream renders event-stream messages one per line:
// "<message-type> <event or exception type> <payload>". It stops at the
// first error and returns what it rendered with that error.
func decodeEventStream(body []byte) (string, error) {
	var out strings.Builder
	dec := eventstream.NewDecoder()
	r := bytes.NewReader(body)
	for r.Len() > 0 {
		msg, err := dec.Decode(r, nil)
		if err != nil {
			return out.String(), err
		}
		kind := msg.Headers.Get(":message-type").String()
		name := msg.Headers.Get(":event-type")
		if kind == "exception" {
			name = msg.Headers.Get(":exception-type")
		}
		fmt.Fprintf(&out, "%s %s %s\n", kind, name, msg.Payload)
	}
	return out.String(), nil
}

// The wire cases in the Bedrock format, decoded from the binary stream.
func TestBedrockWireGolden(t *testing.T) {
	for _, c := range wireCases {
		t.Run(c.name, func(t *testing.T) {
			srv := New(t).Script(c.turn)
			resp := postBedrock(t, context.Background(), srv, `{"messages":[]}`)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			fmt.Fprintf(&got, "HTTP %d\n", resp.StatusCode)
			for _, h := range []string{"Content-Type", "Retry-After", "X-Amzn-Errortype", "X-Amzn-Requestid"} {
				if v := resp.Header.Get(h); v != "" {
					fmt.Fprintf(&got, "%s: %s\n", h, v)
				}
			}
			got.WriteString("\n")
			if resp.StatusCode == http.StatusOK {
				text, err := decodeEventStream(body)
				if err != nil {
					t.Fatalf("undecodable event stream after %q: %v", text, err)
				}
				got.WriteString(text)
			} else {
				got.Write(body)
			}
			golden.Check(t, filepath.Join("testdata", "wire", c.name+"."+FormatBedrock+".txt"), got.String())
		})
	}
}

// The request is recorded as Bedrock's with the model id from its path,
// and needs no "stream" field.
func TestBedrockRecordsModelFromPath(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("hi")}})
	resp := postBedrock(t, context.Background(), srv, `{"messages":[]}`)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Format != FormatBedrock {
		t.Fatalf("recorded %+v", reqs)
	}
	if got := bedrockModel(mustURL(t, srv.URL()+bedrockPath)); got != "anthropic.claude-test-v1:0" {
		t.Errorf("model %q", got)
	}
}

// A connection cut mid-stream leaves whole messages before the cut.
func TestBedrockDisconnect(t *testing.T) {
	srv := New(t).Script(Turn{Blocks: []Block{Text("hello there, a long reply")}, DisconnectAfter: 3})
	resp := postBedrock(t, context.Background(), srv, `{}`)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("reading a cut stream: err = %v", err)
	}
	text, err := decodeEventStream(data)
	if err != nil || strings.Count(text, "\n") != 3 {
		t.Errorf("want 3 whole messages before the cut, got %q (%v)", text, err)
	}
}

// Overflow is a ValidationException with the overflow text.
func TestBedrockOverflow(t *testing.T) {
	srv := New(t).Script(Overflow())
	resp := postBedrock(t, context.Background(), srv, `{}`)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.HasPrefix(resp.Header.Get("X-Amzn-Errortype"), "ValidationException:") || !strings.Contains(string(body), OverflowMessage) {
		t.Errorf("%d %v %s", resp.StatusCode, resp.Header, body)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
