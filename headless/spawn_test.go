//go:build unix

package headless

import (
	"strings"
	"testing"
)

// DebugPort reads both forms of the flag and ignores bad values.
func TestDebugPort(t *testing.T) {
	for in, want := range map[string]int{
		"app --remote-debugging-port=9222":         9222,
		"app --remote-debugging-port 9333 --x":     9333,
		"app --remote-debugging-port=0 --y":        0,
		"app --remote-debugging-port=abc":          0,
		"app --remote-debugging-port":              0,
		"app --remote-debugging-port=70000":        0,
		"app --x=1 --remote-debugging-port=1 --z=": 1,
	} {
		if got := DebugPort(strings.Fields(in)); got != want {
			t.Errorf("%q: %d, want %d", in, got, want)
		}
	}
}

// FuzzDebugPort: any command line (NUL-separated, as /proc gives it)
// yields a port in range or 0, without a panic.
func FuzzDebugPort(f *testing.F) {
	f.Add("/opt/app\x00--remote-debugging-port=9222\x00")
	f.Add("app\x00--remote-debugging-port\x00")
	f.Fuzz(func(t *testing.T, cmdline string) {
		if p := DebugPort(strings.Split(cmdline, "\x00")); p < 0 || p > 65535 {
			t.Fatalf("port %d", p)
		}
	})
}
