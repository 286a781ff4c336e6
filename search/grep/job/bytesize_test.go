package job

import "testing"

// --max-filesize takes bytes or a K, M or G suffix (powers of 1024, either
// case), and refuses anything else, zero included.
func TestParseByteSize(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]int64{"10": 10, "2k": 2 << 10, "3M": 3 << 20, "1G": 1 << 30} {
		if got, err := ParseByteSize(s); err != nil || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"0", "-1K", "1Q", "K", "1.5M"} {
		if n, err := ParseByteSize(s); err == nil {
			t.Errorf("ParseByteSize(%q) = %d, want an error", s, n)
		}
	}
}
