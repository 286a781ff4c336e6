package protocol

import "testing"

// FuzzLineIndex checks LineIndex against Position.Offset, position by
// position, errors included.
func FuzzLineIndex(f *testing.F) {
	f.Add([]byte("ab\r\nx😀y\né\n"), []byte{0, 9, 1, 3, 3, 0, 4, 0})
	f.Add([]byte("\r\n\r\r\n\xff\xfe"), []byte{0, 0, 1, 1, 2, 2})
	f.Add([]byte(""), []byte{0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, text, pos []byte) {
		ix := NewLineIndex(text)
		for i := 0; i+1 < len(pos); i += 2 {
			p := Position{Line: int(pos[i]) % 10, Character: int(pos[i+1]) % 20}
			want, wantErr := p.Offset(text)
			got, err := ix.Offset(p)
			if (err != nil) != (wantErr != nil) || got != want || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("LineIndex.Offset(%v) of %q = %d, %v; Position.Offset %d, %v", p, text, got, err, want, wantErr)
			}
		}
		if _, err := ix.Offset(Position{Line: -1}); err == nil {
			t.Fatal("a negative line was accepted")
		}
	})
}
