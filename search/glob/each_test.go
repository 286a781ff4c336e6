package glob

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

// heldScanner streams the first entry of a real walk, then holds the walk
// until gate is closed.
type heldScanner struct {
	*fscache.Cache
	gate chan struct{}
}

func (h heldScanner) WalkStream(ctx context.Context, root string, opts fscache.Options, noStat bool, fn func(fscache.Entry) error, idle func()) error {
	n := 0
	return h.Cache.WalkStream(ctx, root, opts, noStat, func(e fscache.Entry) error {
		if n++; n == 2 {
			select {
			case <-h.gate:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return fn(e)
	}, idle)
}

// Each hands matches over while the walk goes on (`gopi find x / | head
// -1`), and stops the walk when fn has enough.
func TestEachStreamsAndStops(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, name := range []string{"a.go", "b.go", "c.go", "d/e.go"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gate := make(chan struct{})
	first := make(chan string, 1)
	done := make(chan error, 1)
	var got []string
	go func() {
		done <- Each(context.Background(), root, Options{Pattern: "*.go", Scanner: heldScanner{fscache.New(fscache.DefaultPolicy), gate}}, func(m Match) (bool, error) {
			if len(got) == 0 {
				first <- m.Path
			}
			got = append(got, m.Path)
			return len(got) < 3, nil
		})
	}()
	select {
	case p := <-first:
		if p != "a.go" {
			t.Fatalf("first match %q", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no match before the walk ended")
	}
	close(gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %q; fn asked to stop after 3", got)
	}
}
