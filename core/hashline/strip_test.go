package hashline

import "testing"

func TestStripDisplayPrefixes(t *testing.T) {
	for _, c := range []struct {
		in, want string
		stripped bool
	}{
		{"1ab|package a\n2cd|\n\n3ef|func f() {}\n", "package a\n\n\nfunc f() {}\n", true},
		{"1ab|x\n[Showing lines 1-1 of 9. Use :2 to read on]", "x", true},
		{">>12xy|match", "match", true},
		{"1ab|1ab|twice", "twice", true},
		{"1ab|x\nplain", "1ab|x\nplain", false}, // not every line: content
		{"plain\n", "plain\n", false},
		{"\n\n", "\n\n", false},
	} {
		got, ok := StripDisplayPrefixes(c.in)
		if got != c.want || ok != c.stripped {
			t.Errorf("%q: got %q %v, want %q %v", c.in, got, ok, c.want, c.stripped)
		}
	}
}

// FuzzStripDisplayPrefixes checks that a text is either left exactly as
// it is or loses only prefixes and notices (never gains lines).
func FuzzStripDisplayPrefixes(f *testing.F) {
	f.Add("1ab|x\n2cd|y\n")
	f.Add(">>3ef|+ 4gh|z\n[Showing lines 1-2 of 9. Use :3]")
	f.Fuzz(func(t *testing.T, in string) {
		out, stripped := StripDisplayPrefixes(in)
		if !stripped && out != in {
			t.Fatalf("not stripped but changed: %q -> %q", in, out)
		}
		if len(out) > len(in) {
			t.Fatalf("grew: %q -> %q", in, out)
		}
	})
}
