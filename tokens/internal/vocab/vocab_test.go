package vocab

import (
	"testing"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// TestEmbeddedMatchesLoader checks the checked-in compact files against the
// .tiktoken sources they were generated from (run `go generate` after an
// upgrade of tiktoken-go-loader).
func TestEmbeddedMatchesLoader(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		text, err := assets.Assets.ReadFile(name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		want, err := ParseTiktoken(string(text))
		if err != nil {
			t.Fatal(err)
		}
		data, ok := Embedded(name)
		if !ok {
			t.Fatalf("%s not embedded", name)
		}
		tab, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Start) != len(want) {
			t.Fatalf("%s: %d tokens, want %d", name, len(tab.Start), len(want))
		}
		for r, tok := range want {
			if got := tab.Token(r); got != tok || tab.Len(r) != len(tok) {
				t.Fatalf("%s: token %d = %q, want %q (run go generate ./tokens/...)", name, r, got, tok)
			}
		}
	}
}

func TestFormatRoundTrip(t *testing.T) {
	t.Parallel()
	tokens := []string{"a", "b", "ab", "\x00\xff", string(make([]byte, 255))}
	data, err := Format(tokens)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Parse(string(data))
	if err != nil {
		t.Fatal(err)
	}
	for r, tok := range tokens {
		if tab.Token(r) != tok {
			t.Fatalf("token %d = %q, want %q", r, tab.Token(r), tok)
		}
	}
	if _, err := Format([]string{""}); err == nil {
		t.Fatal("empty token accepted")
	}
}

func TestParseRejectsDamage(t *testing.T) {
	t.Parallel()
	good, _ := Format([]string{"ab", "c"})
	for _, bad := range []string{"", "GOPIBPE2\x01\x00\x00\x00\x01a", string(good[:len(good)-1]), string(good) + "x",
		"GOPIBPE1\x01\x00\x00\x00\x00", "GOPIBPE1\xff\xff\xff\xff"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted damaged input", bad)
		}
	}
}

func TestParseTiktokenRejectsGaps(t *testing.T) {
	t.Parallel()
	if _, err := ParseTiktoken("YQ== 0\nYg== 2\n"); err == nil {
		t.Fatal("a rank gap was accepted")
	}
	if _, err := ParseTiktoken("YQ==0\n"); err == nil {
		t.Fatal("a line without a space was accepted")
	}
}

// FuzzParse feeds arbitrary bytes to Parse: it must not panic, and what it
// accepts must format back to the same bytes.
func FuzzParse(f *testing.F) {
	good, _ := Format([]string{"a", "bc", "\x00"})
	f.Add(good)
	f.Add([]byte("GOPIBPE1\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Parse(string(data))
		if err != nil {
			return
		}
		tokens := make([]string, len(tab.Start))
		for r := range tokens {
			tokens[r] = tab.Token(r)
		}
		out, err := Format(tokens)
		if err != nil || string(out) != string(data) {
			t.Fatalf("Parse accepted %q but formats back to %q (%v)", data, out, err)
		}
	})
}
