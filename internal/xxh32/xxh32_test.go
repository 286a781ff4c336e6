package xxh32

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPublishedVectors checks values published with reference
// implementations of XXH32.
func TestPublishedVectors(t *testing.T) {
	for _, c := range []struct {
		in   string
		seed uint32
		want uint32
	}{
		{"", 0, 0x02CC5D05},
		{"", prime1, 0x36B78AE7},
		{"a", 0, 0x550D7456},
		{"abc", 0, 0x32D153FF},
		{"Nobody inspects the spammish repetition", 0, 0xE2293B2F},
	} {
		if got := Sum(c.in, c.seed); got != c.want {
			t.Errorf("Sum(%q, %d) = %#x, want %#x", c.in, c.seed, got, c.want)
		}
		d := NewDigest(c.seed)
		d.Write([]byte(c.in))
		if got := d.Sum32(); got != c.want {
			t.Errorf("Digest(%q, %d) = %#x, want %#x", c.in, c.seed, got, c.want)
		}
	}
}

// bunVector is one row of testdata/bun-vectors.txt.
type bunVector struct {
	n    int
	seed uint32
	want uint32
}

// readBunVectors returns the buffer and the rows of testdata/bun-vectors.txt.
func readBunVectors(t *testing.T) ([]byte, []bunVector) {
	t.Helper()
	f, err := os.Open("testdata/bun-vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf []byte
	var rows []bunVector
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if buf == nil {
			if buf, err = hex.DecodeString(line); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var v [3]uint64
		for i, f := range strings.Fields(line) {
			if v[i], err = strconv.ParseUint(f, 10, 32); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
		}
		rows = append(rows, bunVector{int(v[0]), uint32(v[1]), uint32(v[2])})
	}
	if len(rows) < 200 {
		t.Fatalf("only %d vectors", len(rows))
	}
	return buf, rows
}

// TestBunVectors checks every length from 0 to 70 (all tail shapes, one to
// four stripes) and a few longer inputs against Bun's implementation, in
// one call and written in pieces of every size.
func TestBunVectors(t *testing.T) {
	buf, rows := readBunVectors(t)
	for _, r := range rows {
		in := buf[:r.n]
		if got := Sum(string(in), r.seed); got != r.want {
			t.Fatalf("Sum(%d bytes, seed %d) = %d, Bun says %d", r.n, r.seed, got, r.want)
		}
		if _, ascii := SumASCII(string(in), r.seed); ascii != (bytes.IndexFunc(in, func(c rune) bool { return c >= 0x80 }) < 0 && utf8.Valid(in)) {
			t.Fatalf("SumASCII(%d bytes) reports ascii %v", r.n, ascii)
		}
		for piece := 1; piece <= 17; piece++ {
			d := NewDigest(r.seed)
			for p := in; len(p) > 0; {
				k := min(piece, len(p))
				d.Write(p[:k])
				p = p[k:]
			}
			if got := d.Sum32(); got != r.want {
				t.Fatalf("Digest(%d bytes, seed %d, pieces of %d) = %d, Bun says %d", r.n, r.seed, piece, got, r.want)
			}
		}
	}
}

// TestDigestSnapshot checks that a copied digest is independent and that
// Sum32 leaves the state alone.
func TestDigestSnapshot(t *testing.T) {
	d := NewDigest(9)
	d.Write([]byte("0123456789abcdefXYZ"))
	snap := d
	_ = d.Sum32()
	d.Write([]byte("more input"))
	if snap.Sum32() != Sum("0123456789abcdefXYZ", 9) || d.Sum32() != Sum("0123456789abcdefXYZmore input", 9) {
		t.Fatal("snapshot and continued digest disagree with Sum")
	}
	d.Reset()
	if d.Sum32() != Sum("", 9) {
		t.Fatal("Reset does not restart the hash")
	}
}

func BenchmarkSum(b *testing.B) {
	s := "\treturn clean.length === 0 ? DEF : clean.toUpperCase();"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Sum(s, 0)
	}
}

// TestSumASCII checks the ASCII report for a high byte at every position
// (each lane of a stripe, the word tail and the byte tail).
func TestSumASCII(t *testing.T) {
	for n := 0; n <= 40; n++ {
		b := bytes.Repeat([]byte{'a'}, n)
		if h, ascii := SumASCII(string(b), 3); !ascii || h != Sum(string(b), 3) {
			t.Fatalf("%d ASCII bytes: ascii %v", n, ascii)
		}
		for i := range n {
			c := bytes.Clone(b)
			c[i] = 0x80
			if _, ascii := SumASCII(string(c), 3); ascii {
				t.Fatalf("%d bytes, high byte at %d: reported ASCII", n, i)
			}
		}
	}
}
