package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/search/grep"
)

// referenceGrepJSON is the slow path appendGrepJSON replaces: the encoder
// over toJSONMatch of the same match as a record.
func referenceGrepJSON(t testing.TB, path string, v *grep.MatchView) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	m := grep.Match{Path: path, Line: v.Line, Offset: v.Offset, Text: string(v.Text), Truncated: v.Truncated, Spans: v.Spans}
	if err := enc.Encode(toJSONMatch(path, &m)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkGrepJSON compares the two, whole and spilled after every submatch.
func checkGrepJSON(t testing.TB, path string, v *grep.MatchView) {
	t.Helper()
	want := referenceGrepJSON(t, path, v)
	got, ok := appendGrepJSON(nil, path, v, nil)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("match %+v\n got %s\nwant %s", v, got, want)
	}
	var spilled []byte
	spill := func(dst []byte) ([]byte, bool) {
		spilled = append(spilled, dst...)
		return dst[:0], true
	}
	rest, ok := appendGrepJSON(nil, path, v, spill)
	if got := append(spilled, rest...); !ok || !bytes.Equal(got, want) {
		t.Fatalf("spilled: match %+v\n got %s\nwant %s", v, got, want)
	}
}

func TestGrepJSONMatchesEncodingJSON(t *testing.T) {
	for _, path := range jsonTrickyStrings {
		for _, text := range jsonTrickyStrings {
			v := &grep.MatchView{Line: 7, Offset: 1 << 40, Text: []byte(text), Spans: []grep.Span{}}
			checkGrepJSON(t, path, v)
			if len(text) > 2 {
				v.Spans = []grep.Span{{Start: 0, End: 1}, {Start: 1, End: 1}, {Start: 2, End: len(text)}}
				v.Truncated = true
				checkGrepJSON(t, path, v)
			}
		}
	}
	// A match that takes the line's newline ends one past the text (-U
	// 'foo\n'); it panicked on both paths.
	checkGrepJSON(t, "p", &grep.MatchView{Line: 1, Text: []byte("foo"), Spans: []grep.Span{{Start: 0, End: 4}}})
	checkGrepJSON(t, "p", &grep.MatchView{Line: 1, Text: []byte("foo"), Spans: []grep.Span{{Start: 3, End: 4}}})
	if got, _ := appendGrepJSON(nil, "p", &grep.MatchView{Line: 1, Text: []byte("foo"), Spans: []grep.Span{{Start: 1, End: 4}}}, nil); !strings.Contains(string(got), `"text":"oo\n"`) {
		t.Errorf("submatch of a match taking the newline: %s", got)
	}
	// Random texts and spans.
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab\"\\\n\t\x00\x7f\xc3\xa9\xe2\x80\xa8\xff<&")
	for range 2000 {
		text := make([]byte, rng.IntN(40))
		for i := range text {
			text[i] = alphabet[rng.IntN(len(alphabet))]
		}
		checkGrepJSON(t, "p", &grep.MatchView{Line: rng.IntN(1000), Offset: rng.Int64N(1 << 30), Text: text, Spans: randomSpans(rng, len(text))})
	}
}

// randomSpans returns sorted, non-overlapping spans within n bytes.
func randomSpans(rng *rand.Rand, n int) []grep.Span {
	var spans []grep.Span
	for pos := 0; pos < n; {
		start := pos + rng.IntN(n-pos+1)
		end := start + rng.IntN(n-start+1)
		spans = append(spans, grep.Span{Start: start, End: end})
		pos = end + 1
	}
	return spans
}

func FuzzGrepJSONMatchesEncodingJSON(f *testing.F) {
	for _, s := range jsonTrickyStrings {
		f.Add("dir/a.go", s, uint64(3), false)
	}
	f.Fuzz(func(t *testing.T, path, text string, seed uint64, truncated bool) {
		rng := rand.New(rand.NewPCG(seed, seed))
		checkGrepJSON(t, path, &grep.MatchView{Line: 1, Text: []byte(text), Truncated: truncated, Spans: randomSpans(rng, len(text))})
	})
}
