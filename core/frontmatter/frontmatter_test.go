package frontmatter

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, in string
		meta     map[string]any
		body     string
		wantErr  bool
	}{
		{"none", "just text\n", nil, "just text", false},
		{"yaml", "---\nname: x\nalwaysApply: true\nglobs: [a, b]\n---\n\nBody\n", map[string]any{"name": "x", "alwaysApply": true, "globs": []any{"a", "b"}}, "Body", false},
		{"empty header", "---\n---\nBody", map[string]any{}, "Body", false},
		{"broken yaml falls back", "---\nname: x\ndescription: [unclosed\n---\nBody", map[string]any{"name": "x", "description": "[unclosed"}, "Body", true},
		{"unclosed", "---\nname: x\nBody", nil, "---\nname: x\nBody", true},
		{"cursor globs", "---\ndescription: TS\nglobs: *.ts,src/**/*.tsx\nalwaysApply: false\n---\nB", map[string]any{"description": "TS", "globs": "*.ts,src/**/*.tsx", "alwaysApply": false}, "B", false},
		{"colon in a value", "---\nname: x\ndescription: Use when: the user asks\n---\nB", map[string]any{"name": "x", "description": "Use when: the user asks"}, "B", false},
		{"crlf", "---\r\nname: y\r\n---\r\nB\r\n", map[string]any{"name": "y"}, "B", false},
	}
	for _, c := range cases {
		meta, body, err := Parse([]byte(c.in))
		if (err != nil) != c.wantErr {
			t.Errorf("%s: err = %v, want error %v", c.name, err, c.wantErr)
		}
		if !reflect.DeepEqual(meta, c.meta) || body != c.body {
			t.Errorf("%s: got %#v %q, want %#v %q", c.name, meta, body, c.meta, c.body)
		}
	}
}

func TestAccessors(t *testing.T) {
	m := map[string]any{"a": "true", "b": true, "l": []any{"x", 1, " y "}, "s": "one"}
	if !Bool(m, "a") || !Bool(m, "b") || Bool(m, "c") {
		t.Error("Bool")
	}
	if got := Strings(m, "l"); !reflect.DeepEqual(got, []string{"x", "y"}) {
		t.Errorf("Strings list = %v", got)
	}
	if got := Strings(m, "s"); !reflect.DeepEqual(got, []string{"one"}) {
		t.Errorf("Strings single = %v", got)
	}
}
