package archive

import (
	"fmt"
	"strings"
	"testing"
)

func TestSplits(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"a.zip":                {"a.zip|"},
		"A.ZIP:x":              {"A.ZIP|x"},
		"a.tar.gz:d/f":         {"a.tar.gz|d/f"},
		"a.tgz":                {"a.tgz|"},
		"x.tar":                {"x.tar|"},
		"o.zip:i.tgz:f":        {"o.zip|i.tgz:f", "o.zip:i.tgz|f"},
		"dir.zip/f.txt":        nil,
		"notes.zip.txt":        nil,
		"a.zip:":               {"a.zip|"},
		"weird:name.zip:inner": {"weird:name.zip|inner"},
	} {
		var got []string
		for _, s := range Splits(in) {
			got = append(got, s.Archive+"|"+s.Inner)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Splits(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanPath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"a/b.txt":       "a/b.txt",
		"./a//b/./c":    "a/b/c",
		`a\b\c.txt`:     "a/b/c.txt",
		"a/../b":        "error",
		"dir/":          "dir",
		"/etc/passwd":   "etc/passwd (abs)",
		`C:\x\y`:        "C:/x/y (abs)",
		"C:x":           "C:x",
		"":              "",
		"../x":          "error",
		"a/../../x":     "error",
		`..\x`:          "error",
		"/../x":         "error",
		"a/b/../../c/d": "error",
		"a/..b/c..":     "a/..b/c..",
	} {
		clean, abs, err := CleanPath(in)
		got := clean
		switch {
		case err != nil:
			got = "error"
		case abs:
			got += " (abs)"
		}
		if got != want {
			t.Errorf("CleanPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzPath checks archive path parsing: every split puts the path
// back together, names an archive by its extension, and a member path
// cleans to a canonical form (idempotent; no "..", "." or empty segments;
// no leading or trailing slash) or is refused for its "..".
func FuzzPath(f *testing.F) {
	for _, s := range []string{"a.zip", "a.zip:dir/f.txt", "a.tgz:f:50-60", "o.zip:i.tar.gz:f", "A.TAR:./x/../y",
		`a.zip:..\..\evil`, "a.zip:/abs", `a.zip:C:\x`, "a.zip::", "x.tar.gz:", "dir.zip/f", "a.zip:a/b/../../../c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range Splits(in) {
			joined := s.Archive
			if len(in) > len(s.Archive) {
				joined += ":" + s.Inner
			}
			if joined != in {
				t.Fatalf("split %q|%q does not rebuild %q", s.Archive, s.Inner, in)
			}
			if f, ok := FormatOf(s.Archive); !ok || f != s.Format {
				t.Fatalf("split archive %q has no archive extension", s.Archive)
			}
		}
		clean, _, err := CleanPath(in)
		if err != nil {
			if err != ErrDotDot {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if strings.HasPrefix(clean, "/") || strings.HasSuffix(clean, "/") || strings.Contains(clean, "//") ||
			strings.Contains(clean, `\`) || clean == "." || clean == ".." ||
			strings.HasPrefix(clean, "../") || strings.Contains(clean, "/../") || strings.HasSuffix(clean, "/..") ||
			strings.HasPrefix(clean, "./") || strings.Contains(clean, "/./") || strings.HasSuffix(clean, "/.") {
			t.Fatalf("CleanPath(%q) = %q is not canonical", in, clean)
		}
		again, _, err := CleanPath(clean)
		if err != nil || again != clean {
			t.Fatalf("cleaning %q again gave %q, %v", clean, again, err)
		}
	})
}
