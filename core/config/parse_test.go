package config

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestParseSettings(t *testing.T) {
	want := map[string]any{
		"steeringMode": "all",
		"compaction":   map[string]any{"reserveTokens": 1000, "thresholdPercent": 0.5},
		"modelRoles":   map[string]any{"default": "anthropic/claude-sonnet-4-5"},
		"list":         []any{"a", 1, true, nil},
	}
	for _, tc := range []struct {
		name string
		f    Format
		in   string
	}{
		{"yaml", FormatYAML, "steeringMode: all\ncompaction:\n  reserveTokens: 1000\n  thresholdPercent: 0.5\nmodelRoles: {default: anthropic/claude-sonnet-4-5}\nlist: [a, 1, true, null]\n"},
		{"json", FormatJSON, `{"steeringMode":"all","compaction":{"reserveTokens":1000,"thresholdPercent":0.5},"modelRoles":{"default":"anthropic/claude-sonnet-4-5"},"list":["a",1,true,null]}`},
		{"jsonc", FormatJSONC, "// settings\n{\n  \"steeringMode\": \"all\", /* inline */\n  \"compaction\": {\"reserveTokens\": 1000, \"thresholdPercent\": 0.5,},\n  \"modelRoles\": {\"default\": \"anthropic/claude-sonnet-4-5\"}, // roles\n  \"list\": [\"a\", 1, true, null, ],\n}\n"},
		{"json with bom and comments", FormatJSON, "\ufeff{\"steeringMode\":\"all\",\"compaction\":{\"reserveTokens\":1000,\"thresholdPercent\":0.5},\"modelRoles\":{\"default\":\"anthropic/claude-sonnet-4-5\"},\"list\":[\"a\",1,true,null]} // end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSettings([]byte(tc.in), tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %#v", got)
			}
		})
	}
}

func TestParseSettingsEdges(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		f        Format
		want     map[string]any
		err      string
	}{
		{"empty yaml", "", FormatYAML, map[string]any{}, ""},
		{"null yaml", "~\n", FormatYAML, map[string]any{}, ""},
		{"empty json", "  // nothing\n", FormatJSON, map[string]any{}, ""},
		{"yaml list at top", "- a\n", FormatYAML, nil, "expected a map of settings at the top level, got a list"},
		{"json scalar at top", "3", FormatJSON, nil, "expected a map of settings at the top level, got 3"},
		{"yaml syntax", "a: [1\nb: 2\n", FormatYAML, nil, "line "},
		{"json syntax", "{\n  \"a\": 1\n  \"b\": 2\n}", FormatJSON, nil, "line 3, column 3"},
		{"json truncated", "{\"a\": ", FormatJSON, nil, "unexpected end"},
		{"json trailing data", "{} {}", FormatJSON, nil, "unexpected data after"},
		{"string with comment marks", `{"u": "http://x/*y*/", "c": "a,}"}`, FormatJSONC, map[string]any{"u": "http://x/*y*/", "c": "a,}"}, ""},
		{"yaml timestamp and non-string keys", "d: 2024-01-02\nm: {1: x}\n", FormatYAML, map[string]any{"d": "2024-01-02", "m": map[string]any{"1": "x"}}, ""},
		{"big and fractional numbers", `{"a": 1e3, "b": 1.5, "c": 12345678901234}`, FormatJSON, map[string]any{"a": 1000, "b": 1.5, "c": 12345678901234}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSettings([]byte(tc.in), tc.f)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, %v", got, err)
			}
		})
	}
}

func TestStripJSONCKeepsPositions(t *testing.T) {
	in := "{ /* a\nb */ \"x\": 1, // c\n}"
	out := StripJSONC([]byte(in))
	if len(out) != len(in) || strings.Count(string(out), "\n") != 2 {
		t.Fatalf("%q", out)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil || v["x"] != 1.0 {
		t.Fatalf("%q: %v %v", out, v, err)
	}
}

// FuzzParseSettings checks that no input panics any parser, that JSON
// parsed as JSONC gives the same tree, and that a parsed tree written back
// as JSON and YAML reads the same.
func FuzzParseSettings(f *testing.F) {
	f.Add([]byte(`{"a": {"b": [1, 2.5, "x", null, true]}}`))
	f.Add([]byte("a:\n  b: [1, 2.5, x, null, true]\n"))
	f.Add([]byte("// c\n{\"a\": 1, /* d */ \"b\": [1,],}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		y, yerr := ParseSettings(data, FormatYAML)
		j, jerr := ParseSettings(data, FormatJSON)
		c, cerr := ParseSettings(data, FormatJSONC)
		if (jerr == nil) != (cerr == nil) || jerr == nil && !reflect.DeepEqual(j, c) {
			t.Fatalf("json and jsonc differ: %v / %v", jerr, cerr)
		}
		for _, tree := range []map[string]any{y, j} {
			if tree == nil {
				continue
			}
			if yerr != nil && jerr != nil {
				t.Fatal("a tree without a parse")
			}
			if b, err := json.Marshal(tree); err == nil {
				back, err := ParseSettings(b, FormatJSON)
				if err != nil || !reflect.DeepEqual(back, tree) {
					t.Fatalf("json round trip of %#v: %#v, %v", tree, back, err)
				}
			}
		}
	})
}
