package pykernel

import (
	"bytes"
	"testing"
)

// FuzzReadFrames: whatever the runner's stream holds (a cell may write
// to it), parsing ends without a panic and no output frame carries more
// than it claimed or than maxOutputFrame.
func FuzzReadFrames(f *testing.F) {
	for _, s := range []string{
		"{\"type\": \"stdout\", \"id\": \"1\", \"bytes\": 3}\nabc{\"type\": \"done\", \"id\": \"1\", \"status\": \"ok\"}\n",
		"{\"type\": \"display\", \"id\": \"2\", \"bundle\": {\"image/png\": \"iVBOR\"}}\n",
		"{\"bytes\": 99999999999}\n",
		"not json\n{\"type\": \"stderr\", \"bytes\": -4}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		readFrames(bytes.NewReader(data), func(fr frame) {
			if len(fr.raw) > maxOutputFrame || (fr.Bytes > 0 && len(fr.raw) != fr.Bytes) {
				t.Fatalf("frame %+v with %d bytes", fr, len(fr.raw))
			}
		})
	})
}
