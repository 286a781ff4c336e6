package commitgen

import (
	"reflect"
	"strings"
	"testing"
)

func TestCheckProposal(t *testing.T) {
	for _, tc := range []struct {
		name       string
		m          Message
		files      []string
		wantErr    string // a substring of one error; "" for none
		wantWarn   string
		wantSumary string
	}{
		{name: "fine", m: Message{Type: "fix", Scope: "parser", Summary: "handled empty input"}, files: []string{"parser.go"}},
		{name: "type and scope repeated", m: Message{Type: "fix", Scope: "parser", Summary: "fix(parser):  handled   empty input"}, files: []string{"a.go"}, wantSumary: "handled empty input"},
		{name: "not past tense", m: Message{Type: "fix", Summary: "handle empty input"}, files: []string{"a.go"}, wantErr: "past tense"},
		{name: "irregular past tense", m: Message{Type: "chore", Summary: "made the build quieter"}, files: []string{"a.go"}},
		{name: "period", m: Message{Type: "fix", Summary: "fixed it."}, files: []string{"a.go"}, wantErr: "ends with a period"},
		{name: "filler", m: Message{Type: "fix", Summary: "fixed various bugs"}, files: []string{"a.go"}, wantWarn: `"various"`},
		{name: "docs without docs", m: Message{Type: "docs", Summary: "documented Parse"}, files: []string{"parser.go"}, wantErr: "documentation file"},
		{name: "docs with docs", m: Message{Type: "docs", Summary: "documented Parse"}, files: []string{"README.md"}},
		{name: "test without tests", m: Message{Type: "test", Summary: "added tests"}, files: []string{"parser.go"}, wantErr: "test file"},
		{name: "bad scope", m: Message{Type: "fix", Scope: "Parser", Summary: "fixed it"}, files: []string{"a.go"}, wantErr: "scope segment"},
		{name: "detail without period", m: Message{Type: "fix", Summary: "fixed it", Details: []string{"No period"}}, files: []string{"a.go"}, wantErr: "does not end with a period"},
		{name: "unknown type", m: Message{Type: "feature", Summary: "added it"}, files: []string{"a.go"}, wantErr: "not one of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m
			errs, warns := CheckProposal(&m, tc.files, "")
			if (tc.wantErr == "") != (len(errs) == 0) || (tc.wantErr != "" && !strings.Contains(strings.Join(errs, "|"), tc.wantErr)) {
				t.Fatalf("errors %q, want %q", errs, tc.wantErr)
			}
			if tc.wantWarn != "" && !strings.Contains(strings.Join(warns, "|"), tc.wantWarn) {
				t.Fatalf("warnings %q, want %q", warns, tc.wantWarn)
			}
			if tc.wantSumary != "" && m.Summary != tc.wantSumary {
				t.Fatalf("summary %q", m.Summary)
			}
		})
	}
}

func TestCapDetails(t *testing.T) {
	in := []string{"A.", "B.", "Fixed a crash.", "C.", "D.", "E.", "Closed a security hole.", "F."}
	got, warns := CapDetails(in)
	want := []string{"A.", "B.", "Fixed a crash.", "C.", "D.", "Closed a security hole."}
	if !reflect.DeepEqual(got, want) || len(warns) != 1 {
		t.Fatalf("%q %q", got, warns)
	}
}

func TestTrivial(t *testing.T) {
	for diff, want := range map[string]string{
		"--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+\n":                 "formatted code",
		"@@ -1 +1 @@\n-import a from 'a'\n+import b from 'b'\n+\n": "reorganized imports",
		"@@ -1 +1 @@\n-x := 1\n+x := 2\n":                          "",
		"":                                                         "",
		"@@ -1 +1 @@\n-import a from 'a'\n+const b = require('b')\n":   "",
		"@@ -1 +1 @@\n-\tfoo()\n+foo()\n":                              "",
		"@@ -1 +1 @@\n+module.exports = x\n-from os import path\n":     "reorganized imports",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,0 +1 @@\n+\t  \n": "formatted code",
	} {
		m, ok := Trivial(diff)
		if ok != (want != "") || m.Summary != want || (ok && m.Type != "style") {
			t.Errorf("%q: %+v %v, want %q", diff, m, ok, want)
		}
	}
}

func TestFallback(t *testing.T) {
	for _, tc := range []struct {
		files []NumstatEntry
		want  string
	}{
		{[]NumstatEntry{{Path: "src/parser.go"}}, "refactor: refactored parser.go\n\n- Updated parser.go"},
		{[]NumstatEntry{{Path: "README.md"}, {Path: "docs/x.md"}}, "docs: updated documentation for README.md and 1 other\n\n- Updated README.md\n- Updated x.md"},
		{[]NumstatEntry{{Path: "a_test.go"}, {Path: "b_test.go"}, {Path: "c_test.go"}, {Path: "d_test.go"}}, "test: updated tests for a_test.go and 3 others\n\n- Updated a_test.go\n- Updated b_test.go\n- Updated c_test.go"},
		{[]NumstatEntry{{Path: "config.yml"}}, "chore: updated config.yml\n\n- Updated config.yml"},
		{nil, "chore: updated files"},
	} {
		if got := Fallback(tc.files).String(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.files, got, tc.want)
		}
	}
}

func TestScopeCandidates(t *testing.T) {
	text, wide := ScopeCandidates([]NumstatEntry{{"src/parser/lex.go", 80, 0}, {"src/parser/parse.go", 10, 0}, {"README.md", 10, 0}})
	if wide || !strings.HasPrefix(text, "parser (90%, high confidence)") {
		t.Fatalf("%q %v", text, wide)
	}
	text, wide = ScopeCandidates([]NumstatEntry{{"api/a.go", 10, 0}, {"db/b.go", 10, 0}, {"ui/c.go", 10, 0}})
	if !wide || text != "(none - multi-component change)" {
		t.Fatalf("%q %v", text, wide)
	}
	if text, _ := ScopeCandidates(nil); text != "(none - no measurable changes)" {
		t.Fatal(text)
	}
}
