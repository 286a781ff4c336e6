package ai

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gopi-agent/gopi/core/ai/sse"
)

func TestReadEvents(t *testing.T) {
	body := io.NopCloser(strings.NewReader("event: a\ndata:  {\"x\":1} \n\n: ping\n\nevent: ping\n\ndata: \ndata: \t\n\ndata: last\n\ndata: after\n\n"))
	var got []string
	done, err := ReadEvents(context.Background(), body, func(ev sse.Event) (bool, error) {
		got = append(got, string(ev.Name)+"="+string(ev.Data))
		return string(ev.Data) == "last", nil
	})
	if !done || err != nil {
		t.Fatalf("done %v, err %v", done, err)
	}
	// Blank data is skipped, data is trimmed, and nothing is read after done.
	if want := []string{`a={"x":1}`, "=last"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", got, want)
	}
}

func TestReadEventsEnds(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		name    string
		body    io.Reader
		handle  error
		wantErr string
		is      error
	}{
		{"clean end", strings.NewReader("data: 1\n\n"), nil, "", nil},
		{"handler error", strings.NewReader("data: 1\n\ndata: 2\n\n"), boom, "boom", boom},
		{"cut body", io.MultiReader(strings.NewReader("data: 1\n\n"), iotest.ErrReader(io.ErrUnexpectedEOF)), nil,
			ErrStreamEnded.Error() + ": unexpected EOF", ErrStreamEnded},
		{"read failure", iotest.ErrReader(boom), nil, "reading the response stream: boom", boom},
		{"line too long", strings.NewReader("data: " + strings.Repeat("x", sse.MaxLine+1)), nil,
			"reading the response stream: sse: line 1 is longer than 16 MiB", sse.ErrTooLong},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			done, err := ReadEvents(context.Background(), io.NopCloser(c.body), func(sse.Event) (bool, error) {
				calls++
				return false, c.handle
			})
			if done {
				t.Error("done without a final event")
			}
			if c.wantErr == "" {
				if err != nil || calls != 1 {
					t.Errorf("err %v after %d events", err, calls)
				}
				return
			}
			if err == nil || err.Error() != c.wantErr || !errors.Is(err, c.is) {
				t.Errorf("err %v, want %q", err, c.wantErr)
			}
			if c.handle != nil && calls != 1 {
				t.Errorf("%d events after the handler failed", calls)
			}
		})
	}
}

// TestReadEventsCancel checks that ending ctx unblocks a read that would
// otherwise wait for ever.
func TestReadEventsCancel(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := ReadEvents(ctx, pr, func(ev sse.Event) (bool, error) {
			cancel() // the first event ends the context; the next read stalls
			return false, nil
		})
		errc <- err
	}()
	if _, err := pw.Write([]byte("data: 1\n\n")); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("err %v, want the closed body's error", err)
	}
}
