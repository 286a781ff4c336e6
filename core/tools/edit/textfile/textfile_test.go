package textfile

import (
	"slices"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"", "a", "a\n", "a\r\nb\r\n", "\ufeffa\nb", "\ufeffx\r\ny", "a\rb\n", "a\nb\r\n",
	} {
		d := Decode([]byte(raw))
		if got := string(d.Encode(d.Text)); got != raw {
			t.Errorf("round trip of %q = %q", raw, got)
		}
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	d := Decode([]byte("\ufeffone\r\ntwo\r\n"))
	if !d.BOM || !d.CRLF || d.Text != "one\ntwo\n" {
		t.Fatalf("got %+v", d)
	}
	if got := string(d.Encode("one\nthree\n")); got != "\ufeffone\r\nthree\r\n" {
		t.Fatalf("encode: %q", got)
	}
}

func TestLines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in    string
		lines []string
		final bool
	}{
		{"", nil, false},
		{"a", []string{"a"}, false},
		{"a\n", []string{"a"}, true},
		{"a\n\n", []string{"a", ""}, true},
		{"\n", []string{""}, true},
	}
	for _, c := range cases {
		lines, final := Lines(c.in)
		if !slices.Equal(lines, c.lines) || final != c.final {
			t.Errorf("Lines(%q) = %q, %v", c.in, lines, final)
		}
		if got := Join(lines, final); got != c.in {
			t.Errorf("Join(Lines(%q)) = %q", c.in, got)
		}
	}
}
