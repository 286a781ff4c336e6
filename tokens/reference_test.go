package tokens

import (
	"slices"
	"sync"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// The slow reference: github.com/pkoukk/tiktoken-go with its offline
// vocabularies, the library gopi's design named originally.
var (
	referenceOnce sync.Once
	references    = map[string]*tiktoken.Tiktoken{}
	referenceErr  error
)

func reference(t testing.TB, name string) *tiktoken.Tiktoken {
	t.Helper()
	referenceOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		for _, n := range Names() {
			tk, err := tiktoken.GetEncoding(n)
			if err != nil {
				referenceErr = err
				return
			}
			references[n] = tk
		}
	})
	if referenceErr != nil {
		t.Fatal(referenceErr)
	}
	return references[name]
}

func mustGet(t testing.TB, name string) *Encoding {
	t.Helper()
	e, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkSame compares ids and counts of both encodings with the reference.
func checkSame(t *testing.T, label, text string) {
	t.Helper()
	for _, name := range Names() {
		e := mustGet(t, name)
		want := reference(t, name).EncodeOrdinary(text)
		got := e.Encode(text)
		if !slices.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			lo := max(0, i-3)
			t.Fatalf("%s %s: ids differ at token %d of %d/%d: got %v want %v (text %q)", name, label, i, len(got), len(want),
				got[lo:min(len(got), i+3)], want[lo:min(len(want), i+3)], clip(text))
		}
		if n := e.Count(text); n != len(want) {
			t.Fatalf("%s %s: Count = %d, want %d", name, label, n, len(want))
		}
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
