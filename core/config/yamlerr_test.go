package config

import (
	"errors"
	"testing"

	"gopkg.in/yaml.v3"
)

// The line gopi names is the one a person finds the fault on, counted
// from 1, for parser and scanner errors alike.
func TestYAMLErrorTextLines(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"a: 1\nb: 2\nc: [1, 2\n", "line 3: did not find expected ',' or ']'"},
		{"c: [1, 2\nd: 3\n", "line 2: did not find expected ',' or ']'"},
		{"a: 1\nb: {x: 1\n", "line 2: did not find expected ',' or '}'"},
		{"a: 1\nb: @x\n", "line 2: found character that cannot start any token"},
		{"a: 1\nb: 2\n  c: 3\n", "line 3: mapping values are not allowed in this context"},
		{"a: 1\na: 2\n", "line 2: mapping key \"a\" already defined at line 1"},
		{"[1, 2\n", "line 2: did not find expected ',' or ']'"},
	} {
		var v any
		err := yaml.Unmarshal([]byte(tc.doc), &v)
		if err == nil {
			t.Fatalf("%q parsed", tc.doc)
		}
		if got := YAMLErrorText(err); got != tc.want {
			t.Errorf("%q: %q (library: %q), want %q", tc.doc, got, err, tc.want)
		}
	}
	if got := YAMLErrorText(errors.New("yaml: something else")); got != "something else" {
		t.Fatal(got)
	}
}

// A settings file that is not valid YAML stops Load with one line: the
// file, the right line, and what to do.
func TestBrokenSettingsFileMessage(t *testing.T) {
	f := newFixture(t)
	p := f.write("home/.gopi/agent/config.yml", "a: 1\nb: 2\nc: [1, 2\n")
	_, err := Load(f.options())
	want := p + ": line 3: did not find expected ',' or ']'; fix the file or remove it"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}
