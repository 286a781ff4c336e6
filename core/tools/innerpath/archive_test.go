package innerpath

import (
	"fmt"
	"strings"
	"testing"
)

func TestArchiveSplits(t *testing.T) {
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
		"a.zip::f":             {"a.zip|f"},
		"weird:name.zip:inner": {"weird:name.zip|inner"},
	} {
		var got []string
		for _, s := range ArchiveSplits(in) {
			got = append(got, s.Archive+"|"+s.Inner)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("ArchiveSplits(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanMember(t *testing.T) {
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
		clean, abs, err := CleanMember(in)
		got := clean
		switch {
		case err != nil:
			got = "error"
		case abs:
			got += " (abs)"
		}
		if got != want {
			t.Errorf("CleanMember(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzArchivePath checks archive path parsing: every split puts the path
// back together, names an archive by its extension, and a member path
// cleans to a canonical form (idempotent; no "..", "." or empty segments;
// no leading or trailing slash) or is refused for its "..".
func FuzzArchivePath(f *testing.F) {
	for _, s := range []string{"a.zip", "a.zip:dir/f.txt", "a.tgz:f:50-60", "o.zip:i.tar.gz:f", "A.TAR:./x/../y",
		`a.zip:..\..\evil`, "a.zip:/abs", `a.zip:C:\x`, "a.zip::", "x.tar.gz:", "dir.zip/f", "a.zip:a/b/../../../c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range ArchiveSplits(in) {
			if !strings.HasPrefix(in, s.Archive) || s.HasInner != (len(in) > len(s.Archive)) {
				t.Fatalf("split %q|%q (inner %v) is not a prefix reading of %q", s.Archive, s.Inner, s.HasInner, in)
			}
			if s.HasInner && (in[len(s.Archive)] != ':' || strings.TrimLeft(in[len(s.Archive):], ":") != s.Inner) {
				t.Fatalf("split %q|%q does not rebuild %q", s.Archive, s.Inner, in)
			}
			if strings.HasPrefix(s.Inner, ":") {
				t.Fatalf("inner %q of %q starts with ':'", s.Inner, in)
			}
			if f, ok := ArchiveFormatOf(s.Archive); !ok || f != s.Format {
				t.Fatalf("split archive %q has no archive extension", s.Archive)
			}
		}
		clean, _, err := CleanMember(in)
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
			t.Fatalf("CleanMember(%q) = %q is not canonical", in, clean)
		}
		again, _, err := CleanMember(clean)
		if err != nil || again != clean {
			t.Fatalf("cleaning %q again gave %q, %v", clean, again, err)
		}
	})
}
