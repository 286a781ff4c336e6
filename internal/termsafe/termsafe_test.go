package termsafe

import "testing"

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\n\tindented":                      "plain text\n\tindented",
		"red \x1b[31mtext\x1b[0m":                     "red text",
		"title \x1b]0;pwned\x07 after \x1b[2J":        "title  after ",
		"progress 10%\rprogress 100%\ndone":           "progress 100%\ndone",
		"keep[\rX]\n":                                 "X]ep[\n",
		"abc\r":                                       "abc",
		"bell\a nul\x00 del\x7f c1\u0085 bad\xff end": "bell nul del c1 bad\uFFFD end",
		"file\u202egnp.exe \u2066x\u2069 \u200fy":     "filegnp.exe x y",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                             "plain",
		"a\tb\nc\r\x1b]0;t\x07d\u202e \xff": "a b c d ",
		"\u0645\u0631\u062d\u0628\u0627":    "\u0645\u0631\u062d\u0628\u0627", // Arabic letters stay
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "a\x1b[2Jb", "x\u202ey", "\xff\xfe", "\x1b]0;t\x07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range Line(s) + Text(s) {
			if r != '\n' && r != '\t' && (IsControl(r) || IsBidi(r)) {
				t.Fatalf("%q kept %U", s, r)
			}
		}
	})
}
