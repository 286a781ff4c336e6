package session

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gopi-agent/gopi/core/message"
)

// unquote must decode exactly as encoding/json does.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\"c\\d\/e"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"\udc00\ud800"`, "\"\xff\xfe\"", `"\u0000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want string
		errJSON := json.Unmarshal(b, &want)
		i := skipWS(b, 0)
		if i >= len(b) || b[i] != '"' {
			return
		}
		end, _, err := skipString(b, i)
		if err != nil || trailing(b, end) != nil {
			if errJSON == nil {
				t.Fatalf("scanner rejects %q that encoding/json accepts", b)
			}
			return
		}
		if errJSON != nil {
			t.Fatalf("scanner accepts %q that encoding/json rejects: %v", b, errJSON)
		}
		if got := unquote(b[i:end]); got != want {
			t.Fatalf("unquote(%q) = %q, want %q", b, got, want)
		}
		// And writing it back reads back the same.
		var again string
		if err := json.Unmarshal(appendQuoted(nil, want), &again); err != nil || again != want {
			t.Fatalf("appendQuoted(%q) does not round-trip: %v", want, err)
		}
	})
}

// The scanner accepts exactly the JSON encoding/json accepts.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2.5e-3,-0,true,false,null]`, `{"a":{"b":[{}]}}`, `01`, `1.`, `[1,]`, `{"a" 1}`, `"\x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", b, got, want)
		}
	})
}

// decodeMessage (the fast path) gives what message.Decode gives.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"role":"user","content":"hi","timestamp":1}`,
		`{"role":"assistant","content":[{"type":"thinking","thinking":"t","thinkingSignature":"s","redacted":true},{"type":"text","text":"x","textSignature":"y"},{"type":"toolCall","id":"1","name":"n","arguments":{"a":1}}],"provider":"p","model":"m","usage":{"input":1},"stopReason":"stop","timestamp":2}`,
		`{"role":"toolResult","toolCallId":"1","toolName":"read","content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"ok","extra":1}],"isError":false,"timestamp":3}`,
		`{"role":"user","Content":"x","content":"y"}`,
		`{"role":"custom","customType":"c","content":"z","display":true,"timestamp":4}`,
		`{"role":"user","content":[{"type":"text","text":"a","Text":"b"}]}`,
		`{"role":"user","content":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, errWant := message.Decode(b)
		got, errGot := decodeMessage(b)
		if (errWant == nil) != (errGot == nil) {
			t.Fatalf("%q: fast error %v, reference error %v", b, errGot, errWant)
		}
		if errWant == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n fast %#v\n  ref %#v", b, got, want)
		}
	})
}

// Loading never panics; every line is an entry or a problem; a rewrite
// (merge, as done under the lock) keeps every line and loads back to the
// same entries and problems. All in memory: fsync makes file-based
// fuzzing crawl.
func FuzzLoad(f *testing.F) {
	for _, name := range []string{"migrate/v1.jsonl", "migrate/v2.jsonl", "omp/tool.jsonl", "golden/new.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"type":"session","version":3,"id":"s"}` + "\n" + `{"type":"x","id":"a","parentId":"a"}` + "\n{\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := parseFile(b, nil, rand.NewChaCha8([32]byte{}))
		if err != nil {
			return
		}
		n := 0
		for _, l := range p.lines {
			if l.entry != nil {
				n++
			}
		}
		if n != len(p.entries) {
			t.Fatalf("%d entry lines, %d entries", n, len(p.entries))
		}
		m := newManager(Options{Rand: rand.NewChaCha8([32]byte{})})
		m.load(p)
		m.BuildContext()
		m.Tree()
		current := b
		if p.migrated {
			current = linesContent(p)
		}
		out, order, err := m.merge(current)
		if err != nil {
			t.Fatalf("merge: %v", err)
		}
		if len(order) != len(p.entries) {
			t.Fatalf("merge kept %d of %d entries", len(order), len(p.entries))
		}
		r, err := parseFile(out, nil, rand.NewChaCha8([32]byte{}))
		if err != nil {
			t.Fatalf("reparse: %v", err)
		}
		if len(r.entries) != len(p.entries) || len(r.problems) != len(p.problems) || r.migrated {
			t.Fatalf("after rewrite: %d entries (was %d), %d problems (was %d)", len(r.entries), len(p.entries), len(r.problems), len(p.problems))
		}
	})
}
