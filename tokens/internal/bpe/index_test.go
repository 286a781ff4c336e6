package bpe

import (
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/tokens/internal/vocab"
)

var encodings = []string{"o200k_base", "cl100k_base"}

// built returns the Vocab New builds from the embedded token file: the
// oracle the embedded index must reproduce.
func built(t testing.TB, name string) *Vocab {
	t.Helper()
	data, _ := vocab.Embedded(name)
	tab, err := vocab.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(tab)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// opened returns the Vocab of the embedded index, read from a copy of it
// that starts at offset shift of an aligned buffer (shift 0 is read in
// place, any other offset is decoded).
func opened(t testing.TB, name string, shift int) *Vocab {
	t.Helper()
	data, _ := vocab.Embedded(name)
	index, ok := vocab.EmbeddedIndex(name)
	if !ok {
		t.Fatalf("%s has no embedded index", name)
	}
	if shift > 0 {
		index = (strings.Repeat("\x00", shift) + index)[shift:]
	}
	v, err := Open(data, index)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// sameTables fails unless got's tables equal want's entry by entry.
func sameTables(t *testing.T, name string, got, want *Vocab) {
	t.Helper()
	if got.table.Data != want.table.Data {
		t.Fatalf("%s: token data differs", name)
	}
	check := func(what string, n, m int, eq func(i int) bool) {
		t.Helper()
		if n != m {
			t.Fatalf("%s: %s has %d entries, want %d (run go generate ./tokens/...)", name, what, n, m)
		}
		for i := range n {
			if !eq(i) {
				t.Fatalf("%s: %s entry %d differs (run go generate ./tokens/...)", name, what, i)
			}
		}
	}
	check("starts", len(got.table.Start), len(want.table.Start), func(i int) bool { return got.table.Start[i] == want.table.Start[i] })
	check("slots", len(got.slots), len(want.slots), func(i int) bool { return got.slots[i] == want.slots[i] })
	check("filter", len(got.filter), len(want.filter), func(i int) bool { return got.filter[i] == want.filter[i] })
	check("pair ranks", len(got.pairRank), len(want.pairRank), func(i int) bool { return got.pairRank[i] == want.pairRank[i] })
	check("byte ranks", len(got.byteRank), len(want.byteRank), func(i int) bool { return got.byteRank[i] == want.byteRank[i] })
}

// TestEmbeddedIndexMatchesBuild holds the generated index to what New
// builds from the token file, entry by entry, read in place and decoded,
// and byte for byte as AppendIndex writes it.
func TestEmbeddedIndexMatchesBuild(t *testing.T) {
	t.Parallel()
	for _, name := range encodings {
		want := built(t, name)
		for _, shift := range []int{0, 1, 4} {
			sameTables(t, name, opened(t, name, shift), want)
		}
		index, _ := vocab.EmbeddedIndex(name)
		if littleEndian && !inPlace(index, 8) {
			t.Errorf("%s: the embedded index is not 8-byte aligned, so every load copies it", name)
		}
		if string(want.AppendIndex(nil)) != index {
			t.Fatalf("%s: the embedded index is not what AppendIndex writes (run go generate ./tokens/...)", name)
		}
	}
}

// TestOpenedLooksUpEveryToken asks the opened tables for every token and
// for byte strings around them, against the built ones.
func TestOpenedLooksUpEveryToken(t *testing.T) {
	t.Parallel()
	for _, name := range encodings {
		got, want := opened(t, name, 0), built(t, name)
		for r := range want.Len() {
			tok := want.Token(r)
			if got.Token(r) != tok {
				t.Fatalf("%s: token %d = %q, want %q", name, r, got.Token(r), tok)
			}
			for _, s := range []string{tok, tok + "\x00", tok[1:], "q" + tok} {
				gr, gok := got.Lookup(s)
				wr, wok := want.Lookup(s)
				if gr != wr || gok != wok {
					t.Fatalf("%s: Lookup(%q) = %d, %v; built tables say %d, %v", name, s, gr, gok, wr, wok)
				}
			}
		}
	}
}

// TestOpenRejectsDamage: a damaged or mismatched index is an error, never
// a panic or a Vocab.
func TestOpenRejectsDamage(t *testing.T) {
	t.Parallel()
	data, _ := vocab.Embedded("o200k_base")
	other, _ := vocab.Embedded("cl100k_base")
	index, _ := vocab.EmbeddedIndex("o200k_base")
	header := func(field int, value byte) string {
		b := []byte(index)
		b[len(indexMagic)+4*field+3] = value // the count's top byte
		return string(b)
	}
	cases := map[string][2]string{
		"empty":           {data, ""},
		"bad magic":       {data, "GOPIBIX0" + index[8:]},
		"truncated":       {data, index[:len(index)-1]},
		"extended":        {data, index + "\x00"},
		"other tokens":    {other, index},
		"huge count":      {data, header(0, 0x7f)},
		"token count":     {data, func() string { b := []byte(index); b[len(indexMagic)] ^= 1; return string(b) }()},
		"slot count":      {data, header(1, 0x01)},
		"filter size":     {data, header(2, 0x01)},
		"header only":     {data, index[:indexAlign]},
		"short header":    {data, index[:12]},
		"data mismatch":   {data[:len(data)-1], index},
		"zero everything": {data, indexMagic + strings.Repeat("\x00", indexAlign-len(indexMagic))},
	}
	for name, c := range cases {
		if v, err := Open(c[0], c[1]); err == nil {
			t.Errorf("%s: Open accepted it (%d tokens)", name, v.Len())
		}
	}
}

// TestAppendIndexRoundTrip writes and opens a tiny vocabulary's index.
func TestAppendIndexRoundTrip(t *testing.T) {
	t.Parallel()
	toks := make([]string, 0, 260)
	for b := range 256 {
		toks = append(toks, string([]byte{byte(b)}))
	}
	toks = append(toks, "ab", "abc", "hello world!", "the")
	data, err := vocab.Format(toks)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := vocab.Parse(string(data))
	if err != nil {
		t.Fatal(err)
	}
	want, err := New(tab)
	if err != nil {
		t.Fatal(err)
	}
	index := string(want.AppendIndex([]byte("prefix")))[len("prefix"):]
	got, err := Open(string(data), index)
	if err != nil {
		t.Fatal(err)
	}
	sameTables(t, "tiny", got, want)
	for _, piece := range []string{"hello world!", "abcab", "theabc", "xyz"} {
		if g, w := got.Append(nil, piece), want.Append(nil, piece); !slices.Equal(g, w) {
			t.Errorf("Append(%q) = %v, want %v", piece, g, w)
		}
	}
}

// FuzzOpen feeds arbitrary headers and sizes to Open: it must not panic,
// and what it accepts must have the size its header describes.
func FuzzOpen(f *testing.F) {
	data, _ := vocab.Format([]string{"a", "b"})
	tab, _ := vocab.Parse(string(data))
	small := &Vocab{table: tab, slots: make([]slot, 4), filter: make([]uint64, 1<<filterBits/64), pairRank: make([]uint32, 1<<16)}
	good := small.AppendIndex(nil)
	f.Add(good[:indexAlign], uint32(0))
	f.Add(good[:indexAlign], uint32(len(good)-indexAlign))
	f.Add([]byte(indexMagic), uint32(100))
	f.Fuzz(func(t *testing.T, header []byte, size uint32) {
		index := append(header, make([]byte, min(int(size), 8<<20))...)
		v, err := Open(string(data), string(index))
		if err != nil {
			return
		}
		l, _ := readHeader(string(index))
		if l.size != len(index) || v.Len() != l.tokens {
			t.Fatalf("accepted an index of %d bytes whose header says %d (%d tokens)", len(index), l.size, l.tokens)
		}
	})
}
