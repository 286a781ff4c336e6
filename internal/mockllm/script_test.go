package mockllm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseScript(t *testing.T) {
	turns, err := ParseScript([]byte(`{"turns": [
	  {"blocks": [{"type": "thinking", "text": "hm", "signature": "s"},
	              {"type": "toolCall", "name": "read", "arguments": {"path": "a.go", "n": [1, 2]}}],
	   "usage": {"input": 12, "output": 30}, "chunkDelay": "20ms"},
	  {"blocks": [{"type": "toolCall", "name": "x", "argumentsRaw": "{\"a\":"}, {"type": "toolCall", "name": "y"}], "noUsage": true},
	  {"status": 429, "retryAfter": "2", "error": "slow down"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 3 {
		t.Fatalf("got %d turns", len(turns))
	}
	if got := turns[0].Blocks[1].Arguments; got != `{"path":"a.go","n":[1,2]}` {
		t.Errorf("arguments = %s", got)
	}
	if turns[0].ChunkDelay != 20*time.Millisecond || turns[0].Usage.Output != 30 {
		t.Errorf("turn 1 = %+v", turns[0])
	}
	if turns[0].NoUsage || !turns[1].NoUsage {
		t.Errorf("noUsage: turn 1 %v, turn 2 %v", turns[0].NoUsage, turns[1].NoUsage)
	}
	if turns[1].Blocks[0].Arguments != `{"a":` || turns[1].Blocks[1].Arguments != "{}" {
		t.Errorf("turn 2 arguments = %q, %q", turns[1].Blocks[0].Arguments, turns[1].Blocks[1].Arguments)
	}
	if turns[2].Status != 429 || turns[2].RetryAfter != "2" || turns[2].ErrorMessage != "slow down" {
		t.Errorf("turn 3 = %+v", turns[2])
	}
}

func TestParseScriptErrors(t *testing.T) {
	cases := []struct{ script, want string }{
		{`[]`, "not valid JSON of the form"},
		{`{"turns": []}`, "script has no turns"},
		{`{"turns": [{"bogus": 1}]}`, `unknown field "bogus"`},
		{`{"turns": [{"stop": "halt"}]}`, `turn 1: stop "halt" is not one of`},
		{`{"turns": [{}, {"status": 200}]}`, "turn 2: status 200 is not an HTTP error status"},
		{`{"turns": [{"blocks": [{"type": "image"}]}]}`, `turn 1: block 0: type "image" is not one of`},
		{`{"turns": [{"blocks": [{"type": "toolCall"}]}]}`, "a toolCall needs a name"},
		{`{"turns": [{"chunkDelay": "soon"}]}`, `chunkDelay "soon" is not a duration`},
		{`{"turns": [{"blocks": [{"type": "toolCall", "name": "x", "arguments": {}, "argumentsRaw": "{}"}]}]}`, "either arguments or argumentsRaw"},
		{`{"turns": [{"format": "cohere"}]}`, `format "cohere" is not one of`},
		{`{"turns": [{"reasoningField": "thoughts"}]}`, `reasoningField "thoughts"`},
		{`{"turns": [{"stallAfter": -1}]}`, "must not be negative"},
	}
	for _, c := range cases {
		_, err := ParseScript([]byte(c.script))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseScript(%s) = %v, want an error containing %q", c.script, err, c.want)
		}
	}
}

func TestLoadScriptNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(`{"turns": [{"stop": "x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadScript(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+": turn 1:") {
		t.Errorf("LoadScript error = %v, want it to start with the path and turn", err)
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "reading script") {
		t.Errorf("missing file error = %v", err)
	}
}

func TestChunkSplitsRunes(t *testing.T) {
	turn := Turn{ChunkSize: 2}
	got := turn.chunk("héllo")
	if strings.Join(got, "|") != "hé|ll|o" {
		t.Errorf("chunk = %q", got)
	}
	if turn.chunk("") != nil {
		t.Error("empty text gave deltas")
	}
}

func TestExampleScriptParses(t *testing.T) {
	turns, err := LoadScript(filepath.Join("testdata", "example-script.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 7 {
		t.Errorf("example script has %d turns, want 7", len(turns))
	}
}
