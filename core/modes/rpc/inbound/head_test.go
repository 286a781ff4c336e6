package inbound

import "testing"

// TestParseHeadExplains: each kind of line that is not a command says
// what it is, in the words the "parse" failure response carries.
func TestParseHeadExplains(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]string{
		`[1]`:                  "a command must be a JSON object, got an array",
		`"x"`:                  "a command must be a JSON object, got a string",
		`true`:                 "a command must be a JSON object, got a boolean",
		`null`:                 `the object has no "type" field`,
		`7`:                    "a command must be a JSON object, got a number",
		`{}`:                   `the object has no "type" field`,
		`{"type":1}`:           `"type" must be a string, got number`,
		`{"type":"a"} x`:       "invalid JSON at byte 14: invalid character 'x' after top-level value",
		`{"type":"get_state"}`: "",
	} {
		_, err := ParseHead([]byte(line))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
	h, err := ParseHead([]byte("{\"id\":\"a\xffb\",\"type\":\"t\"}"))
	if err != nil || string(h.ID) != "\"a\ufffdb\"" || h.Type != "t" {
		t.Fatalf("invalid UTF-8 id: %q %q %v", h.ID, h.Type, err)
	}
}
