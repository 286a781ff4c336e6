package secrets

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

func newObf(t *testing.T, entries ...config.SecretEntry) *Obfuscator {
	t.Helper()
	o, errs := New(entries)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return o
}

var placeholder = regexp.MustCompile(`^#[A-Z0-9]{4}#$`)

func TestPlainObfuscateAndRestore(t *testing.T) {
	o := newObf(t, config.SecretEntry{Type: config.SecretPlain, Content: "abcdefgh12", Mode: config.SecretObfuscate})
	out := o.Obfuscate("token=abcdefgh12; again abcdefgh12")
	if strings.Contains(out, "abcdefgh12") {
		t.Fatalf("secret left in %q", out)
	}
	ph := strings.TrimPrefix(strings.Fields(out)[0], "token=")
	ph = strings.TrimSuffix(ph, ";")
	if !placeholder.MatchString(ph) {
		t.Fatalf("placeholder %q", ph)
	}
	if again := newObf(t, config.SecretEntry{Type: config.SecretPlain, Content: "abcdefgh12"}).Obfuscate("abcdefgh12"); again != ph {
		t.Errorf("placeholders are not deterministic: %q vs %q", again, ph)
	}
	if got := o.Restore(out); got != "token=abcdefgh12; again abcdefgh12" {
		t.Errorf("restore = %q", got)
	}
	args := map[string]any{"command": "curl -H 'X: " + ph + "'", "list": []any{ph, 3.0}, "nested": map[string]any{"k": ph}}
	got := o.RestoreArgs(args)
	b, _ := json.Marshal(got)
	if strings.Count(string(b), "abcdefgh12") != 3 || strings.Contains(string(b), ph) {
		t.Errorf("RestoreArgs = %s", b)
	}
	if args["command"] != "curl -H 'X: "+ph+"'" {
		t.Error("RestoreArgs modified its input")
	}
	if o.Restore("#ZZZZ# stays") != "#ZZZZ# stays" {
		t.Error("an unknown placeholder was changed")
	}
}

func TestReplaceMode(t *testing.T) {
	o := newObf(t,
		config.SecretEntry{Type: config.SecretPlain, Content: "hunter2", Mode: config.SecretReplace, Replacement: "********"},
		config.SecretEntry{Type: config.SecretPlain, Content: "s3cr3tvalue", Mode: config.SecretReplace},
	)
	out := o.Obfuscate("pw hunter2 key s3cr3tvalue")
	if !strings.HasPrefix(out, "pw ******** key ") || strings.Contains(out, "s3cr3tvalue") {
		t.Fatalf("out = %q", out)
	}
	masked := strings.TrimPrefix(out, "pw ******** key ")
	if len(masked) != len("s3cr3tvalue") {
		t.Errorf("mask %q is not the same length", masked)
	}
	if o.Restore(out) != out {
		t.Error("replace mode must not be reversible")
	}
}

func TestRegexReplacesEveryOccurrence(t *testing.T) {
	// No "g" flag given: every match is still replaced.
	o := newObf(t,
		config.SecretEntry{Type: config.SecretRegex, Content: "AKIA[0-9A-Z]{16}", Mode: config.SecretObfuscate},
		config.SecretEntry{Type: config.SecretRegex, Content: `/bearer\s+[a-z0-9._~+\/=-]+/i`, Mode: config.SecretReplace, Replacement: "Bearer ***"},
	)
	in := "AKIAABCDEFGHIJKLMNOP and AKIAQRSTUVWXYZ012345, then AKIAABCDEFGHIJKLMNOP; BEARER abc/def=="
	out := o.Obfuscate(in)
	if strings.Contains(out, "AKIA") || strings.Contains(out, "abc/def") || !strings.Contains(out, "Bearer ***") {
		t.Fatalf("out = %q", out)
	}
	f := strings.Fields(out)
	if f[0] != strings.TrimSuffix(f[4], ";") || f[0] == strings.TrimSuffix(f[2], ",") {
		t.Errorf("same match must give the same placeholder, different ones different: %q", out)
	}
	if got := o.Restore(out); got != strings.Replace(in, "BEARER abc/def==", "Bearer ***", 1) {
		t.Errorf("restore = %q", got)
	}
}

func TestCompileFlags(t *testing.T) {
	for _, tc := range []struct {
		content, flags, match string
		ok                    bool
	}{
		{"api[_-]?key=\\w+", "i", "API_KEY=x", true},
		{"/a\\/b/gi", "", "A/B", true},
		{"x", "q", "", false},
		{"a*", "", "", false}, // matches the empty string
	} {
		re, err := Compile(tc.content, tc.flags)
		if (err == nil) != tc.ok {
			t.Errorf("Compile(%q, %q) err = %v", tc.content, tc.flags, err)
			continue
		}
		if re != nil && !re.MatchString(tc.match) {
			t.Errorf("%q does not match %q", re, tc.match)
		}
	}
	if _, errs := New([]config.SecretEntry{{Type: config.SecretRegex, Content: "(", Source: "x.yml"}}); len(errs) != 1 || !strings.Contains(errs[0].Error(), "x.yml") {
		t.Errorf("errs = %v", errs)
	}
}

func TestObfuscateJSON(t *testing.T) {
	o := newObf(t,
		config.SecretEntry{Type: config.SecretPlain, Content: `pa"ss<word>1`},
		config.SecretEntry{Type: config.SecretRegex, Content: `postgres://[^\s]+`, Mode: config.SecretReplace, Replacement: "postgres://***"},
	)
	doc, _ := json.Marshal(map[string]any{
		"system": `the password is pa"ss<word>1`,
		"n":      json.Number("12345678901234567890"),
		"msgs":   []any{map[string]any{"text": "db postgres://u:p@h/db\" trailing"}},
	})
	out := o.ObfuscateJSON(doc)
	if !json.Valid(out) {
		t.Fatalf("invalid JSON: %s", out)
	}
	s := string(out)
	if strings.Contains(s, "ss<word>") || strings.Contains(s, `ss\u003cword`) || strings.Contains(s, "u:p@h") {
		t.Errorf("secret left: %s", s)
	}
	if !strings.Contains(s, "12345678901234567890") {
		t.Errorf("a number lost its digits: %s", s)
	}
	plain := []byte(`{"a":"nothing secret here"}`)
	if got := o.ObfuscateJSON(plain); string(got) != string(plain) {
		t.Errorf("an untouched document changed: %s", got)
	}
}
