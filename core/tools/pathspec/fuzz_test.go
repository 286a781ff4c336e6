package pathspec

import (
	"strings"
	"testing"
)

// FuzzSplit checks the base/glob split: never a panic, the base never
// holds a glob character, and the glob (minus an added "**/") is the tail
// of the entry.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"src", "*.go", "src/*.go", "a/b/{x,y}/*.ts", "/*.go", "**", "**/x", "a//b*", "[", "./x/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		base, glob := Split(entry)
		if glob == "" {
			if base != entry || HasGlobChars(entry) {
				t.Fatalf("Split(%q) = %q, %q", entry, base, glob)
			}
			return
		}
		if HasGlobChars(base) {
			t.Fatalf("base %q holds a glob character", base)
		}
		tail := glob
		if base == "." && !strings.HasPrefix(entry, "**/") && entry != "**" {
			tail = strings.TrimPrefix(glob, "**/")
		}
		if !strings.HasSuffix(entry, tail) {
			t.Fatalf("Split(%q) glob %q is not the entry's tail", entry, glob)
		}
	})
}
