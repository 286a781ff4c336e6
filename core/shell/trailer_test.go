package shell

import (
	"bytes"
	"strings"
	"testing"
)

const testMagic = "\x00gopi-abc;"

// scanAll feeds stream to a scanner in chunks of size n and returns the
// output and the trailers.
func scanAll(stream []byte, n int) (string, []string) {
	sc := trailerScanner{magic: []byte(testMagic)}
	var out bytes.Buffer
	var trailers []string
	for len(stream) > 0 {
		k := min(n, len(stream))
		sc.feed(stream[:k], func(p []byte) { out.Write(p) }, func(t string) { trailers = append(trailers, t) })
		stream = stream[k:]
	}
	out.Write(sc.flush())
	return out.String(), trailers
}

func TestTrailerScanner(t *testing.T) {
	for _, tc := range []struct {
		stream, out string
		trailers    []string
	}{
		{"hello\n" + testMagic + "0;/tmp\x00", "hello\n", []string{"0;/tmp"}},
		{"a" + testMagic + "1;/\x00b" + testMagic + "2;/x y\x00", "ab", []string{"1;/", "2;/x y"}},
		{"nul\x00\x00gopi-ab but not", "nul\x00\x00gopi-ab but not", nil},
		{"ends with nul\x00", "ends with nul\x00", nil},
		{testMagic + "0;/\x00", "", []string{"0;/"}},
		{"partial " + testMagic[:5], "partial " + testMagic[:5], nil},
	} {
		for n := 1; n <= len(tc.stream); n++ {
			out, trailers := scanAll([]byte(tc.stream), n)
			if out != tc.out || strings.Join(trailers, "|") != strings.Join(tc.trailers, "|") {
				t.Fatalf("%q in chunks of %d: %q %q", tc.stream, n, out, trailers)
			}
		}
	}
}

// FuzzTrailerScanner checks that chunking never changes the result and
// that output without the magic passes through unchanged.
func FuzzTrailerScanner(f *testing.F) {
	f.Add([]byte("x"+testMagic+"0;/\x00y"), 3)
	f.Add([]byte("\x00\x00gopi-a\x00"), 1)
	f.Fuzz(func(t *testing.T, stream []byte, n int) {
		if n <= 0 || n > len(stream)+1 {
			n = len(stream) + 1
		}
		out1, tr1 := scanAll(stream, len(stream)+1)
		outN, trN := scanAll(stream, n)
		if out1 != outN || strings.Join(tr1, "\x01") != strings.Join(trN, "\x01") {
			t.Fatalf("chunk size %d changed the result: %q %q vs %q %q", n, out1, tr1, outN, trN)
		}
		if !bytes.Contains(stream, []byte(testMagic)) && out1 != string(stream) {
			t.Fatalf("output changed: %q", out1)
		}
	})
}
