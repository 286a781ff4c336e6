package printer

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/search/grep"
)

// referenceJSON is the slow path appendJSON replaces: the encoder
// over toJSONMatch of the same match as a record.
func referenceJSON(t testing.TB, path string, v *grep.MatchView) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	m := grep.Match{Path: path, Line: v.Line, Offset: v.Offset, Text: string(v.Text), Truncated: v.Truncated, Spans: v.Spans}
	if err := enc.Encode(toJSONMatch(path, &m)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkJSON compares the two, whole and spilled after every submatch.
func checkJSON(t testing.TB, path string, v *grep.MatchView) {
	t.Helper()
	want := referenceJSON(t, path, v)
	got, ok := appendJSON(nil, path, v, nil)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("match %+v\n got %s\nwant %s", v, got, want)
	}
	var spilled []byte
	spill := func(dst []byte) ([]byte, bool) {
		spilled = append(spilled, dst...)
		return dst[:0], true
	}
	rest, ok := appendJSON(nil, path, v, spill)
	if got := append(spilled, rest...); !ok || !bytes.Equal(got, want) {
		t.Fatalf("spilled: match %+v\n got %s\nwant %s", v, got, want)
	}
}

// trickyStrings hold what a JSON string must escape or replace.
var trickyStrings = []string{
	"", "plain", `quote " and \ backslash`, "tab\tnew\nline\r\x00\x01\x1f\x7f",
	"\b\f", "<html> & </html>", "caf\u00e9 \U0001F600", "\u2028\u2029 x \u2027",
	"bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate", "end\\",
}

func TestJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, path := range trickyStrings {
		for _, text := range trickyStrings {
			v := &grep.MatchView{Line: 7, Offset: 1 << 40, Text: []byte(text), Spans: []grep.Span{}}
			checkJSON(t, path, v)
			if len(text) > 2 {
				v.Spans = []grep.Span{{Start: 0, End: 1}, {Start: 1, End: 1}, {Start: 2, End: len(text)}}
				v.Truncated = true
				checkJSON(t, path, v)
			}
		}
	}
	// A match that takes the line's newline ends one past the text (-U
	// 'foo\n'); it panicked on both paths.
	checkJSON(t, "p", &grep.MatchView{Line: 1, Text: []byte("foo"), Spans: []grep.Span{{Start: 0, End: 4}}})
	checkJSON(t, "p", &grep.MatchView{Line: 1, Text: []byte("foo"), Spans: []grep.Span{{Start: 3, End: 4}}})
	if got, _ := appendJSON(nil, "p", &grep.MatchView{Line: 1, Text: []byte("foo"), Spans: []grep.Span{{Start: 1, End: 4}}}, nil); !strings.Contains(string(got), `"text":"oo\n"`) {
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
		checkJSON(t, "p", &grep.MatchView{Line: rng.IntN(1000), Offset: rng.Int64N(1 << 30), Text: text, Spans: randomSpans(rng, len(text))})
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

func FuzzJSONMatchesEncodingJSON(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add("dir/a.go", s, uint64(3), false)
	}
	f.Fuzz(func(t *testing.T, path, text string, seed uint64, truncated bool) {
		rng := rand.New(rand.NewPCG(seed, seed))
		checkJSON(t, path, &grep.MatchView{Line: 1, Text: []byte(text), Truncated: truncated, Spans: randomSpans(rng, len(text))})
	})
}
