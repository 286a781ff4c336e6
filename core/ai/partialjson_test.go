package ai

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestParsePartialJSON(t *testing.T) {
	tests := []struct {
		in   string
		want string // JSON of the expected value; "" means not ok
	}{
		{`{"a":`, `{}`},
		{`{"a":1}`, `{"a":1}`},
		{`{"a":1`, `{"a":1}`},
		{`{"a":1,`, `{"a":1}`},
		{`{"a":1,"b`, `{"a":1}`},
		{`{"a":1,"b"`, `{"a":1}`},
		{`{"path":"src/ma`, `{"path":"src/ma"}`},
		{`{"s":"a\`, `{"s":"a"}`},
		{`{"s":"a\n`, `{"s":"a\n"}`},
		{`{"s":"\u00`, `{"s":""}`},
		{`{"s":"\u00e9`, `{"s":"é"}`},
		{`{"s":"\ud83d`, `{"s":""}`},
		{`{"s":"\ud83d\ude00"`, `{"s":"😀"}`},
		{`{"n":-`, `{}`},
		{`{"n":12.`, `{"n":12}`},
		{`{"n":1e`, `{"n":1}`},
		{`{"n":1.5e+`, `{"n":1.5}`},
		{`{"b":tr`, `{"b":true}`},
		{`{"b":fals`, `{"b":false}`},
		{`{"x":nu`, `{"x":null}`},
		{`{"l":[1,2,`, `{"l":[1,2]}`},
		{`{"l":[1,{"k":"v`, `{"l":[1,{"k":"v"}]}`},
		{`[`, `[]`},
		{`"abc`, `"abc"`},
		{`  {"a" : { "b" : [ true , null`, `{"a":{"b":[true,null]}}`},
		{``, ``},
		{`   `, ``},
		{`}`, ``},
		{`{"a":1}}`, ``},
		{`{a:1}`, ``},
		{`{"a":01}`, ``},
		{`{"a":trux}`, ``},
		{`{"a" 1}`, ``},
		{`[1 2]`, ``},
		{`{"a":"x` + "\x01" + `"}`, ``},
	}
	for _, tt := range tests {
		got, ok := ParsePartialJSON(tt.in)
		if tt.want == "" {
			if ok {
				t.Errorf("ParsePartialJSON(%q) = %v, want failure", tt.in, got)
			}
			continue
		}
		if !ok {
			t.Errorf("ParsePartialJSON(%q) failed, want %s", tt.in, tt.want)
			continue
		}
		var want any
		if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ParsePartialJSON(%q) = %#v, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseStreamingJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, `{}`},
		{`{"a":`, `{}`},
		{`{"a":1}`, `{"a":1}`},
		{`[1,2]`, `{}`},   // not an object
		{`"str"`, `{}`},   // not an object
		{`garbage`, `{}`}, // unparseable
		{`{"a":[1,`, `{"a":[1]}`},
	}
	for _, tt := range tests {
		got := ParseStreamingJSON(tt.in)
		data, _ := json.Marshal(got)
		if string(data) != tt.want {
			t.Errorf("ParseStreamingJSON(%q) = %s, want %s", tt.in, data, tt.want)
		}
	}
}

// TestPartialMatchesStrictOnEveryPrefix streams complete documents one byte
// at a time: every prefix must parse without failing, and the full text
// must equal encoding/json's result.
func TestPartialMatchesStrictOnEveryPrefix(t *testing.T) {
	docs := []string{
		`{"path":"a/b.go","limit":20,"offset":-3.5e2,"flags":[true,false,null],"nested":{"k":"v\"q\\\u00e9😀"}}`,
		`{"edits":[{"old":"x\ny","new":""},{"old":"\t","new":"  "}],"all":false}`,
		`{}`, `{"a":[]}`, `{"a":{}}`,
	}
	for _, doc := range docs {
		for i := 1; i <= len(doc); i++ {
			if _, ok := ParsePartialJSON(doc[:i]); !ok {
				t.Errorf("prefix %q of a valid document failed", doc[:i])
			}
		}
		var want any
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		got, _ := ParsePartialJSON(doc)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("full document: got %#v, want %#v", got, want)
		}
	}
}

func TestPartialJSONDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", 100000)
	if _, ok := ParsePartialJSON(deep); ok {
		t.Error("absurd nesting accepted")
	}
	if got := ParseStreamingJSON(deep); len(got) != 0 {
		t.Errorf("got %v", got)
	}
}

// FuzzParsePartialJSON checks that the parser never panics, that complete
// JSON parses exactly as encoding/json does (the reference), and that
// every prefix of complete JSON is accepted.
func FuzzParsePartialJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":`, `{"s":"\ud83d\ude00"}`, `[1,2,{"x":null}]`, `{"n":-1.5e+3}`, `"abc`, `tru`, `{"a":"\u00`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParsePartialJSON(s)
		_ = ParseStreamingJSON(s)
		if strings.Count(s, "[")+strings.Count(s, "{") > maxPartialDepth {
			return
		}
		var want any
		if json.Unmarshal([]byte(s), &want) != nil {
			return
		}
		if !ok {
			t.Fatalf("valid JSON %q rejected", s)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %#v, encoding/json %#v", s, got, want)
		}
		// Every prefix is re-parsed, so bound the quadratic work.
		step := max(1, len(s)/256)
		for i := 1; i < len(s); i += step {
			if _, ok := ParsePartialJSON(s[:i]); !ok && strings.TrimSpace(s[:i]) != "" && strings.TrimSpace(s[:i]) != "-" {
				t.Fatalf("prefix %q of valid JSON %q rejected", s[:i], s)
			}
		}
	})
}
