package index

import (
	"reflect"
	"testing"
)

// The file and directory lists round-trip, and any bytes either decode
// or fail cleanly (never panic, never a partial list).
func FuzzFileList(f *testing.F) {
	files := []fileRecord{
		{id: 1, path: "a.c", st: fileState{size: 10, mtime: 1700000000123456789, ino: 42}, indexed: true, narrow: true},
		{id: 2, path: "a/b.go", st: fileState{size: 0, mtime: -1, ino: 7}},
		{id: 9, path: "a/bc.go", st: fileState{size: 1 << 40, mtime: 5, ino: 1 << 62}, indexed: true},
	}
	dirs := []dirState{{path: "", mtime: 3, ino: 4, ignores: "1:2;-;", names: "abc"}, {path: "a", mtime: -5, ino: 6, ignores: "-;-;"}}
	f.Add(encodeFiles(files))
	f.Add(encodeDirs(dirs))
	f.Add([]byte{})
	f.Add([]byte{0x80})
	f.Add([]byte{2, 1, 0, 1, 'x', 0, 0, 0, 0, 0, 0, 1, 'x'})
	f.Add((&delta{tris: []Trigram{5, 0x616263}, lists: [][]byte{{1, 2}, {7}}}).encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, err := decodeFiles(b); err == nil {
			if again, err := decodeFiles(encodeFiles(got)); err != nil || !reflect.DeepEqual(again, got) && len(got) > 0 {
				t.Fatalf("files do not round-trip: %v %+v %+v", err, got, again)
			}
		} else if got != nil {
			t.Fatal("a failed decode returned files")
		}
		if got, err := decodeDelta(b); err == nil {
			if again, err := decodeDelta(got.encode()); err != nil || !reflect.DeepEqual(again.tris, got.tris) {
				t.Fatalf("delta does not round-trip: %v %+v %+v", err, got, again)
			}
		}
		if got, err := decodeDirs(b); err == nil {
			if again, err := decodeDirs(encodeDirs(got)); err != nil || !reflect.DeepEqual(again, got) && len(got) > 0 {
				t.Fatalf("dirs do not round-trip: %v %+v %+v", err, got, again)
			}
		}
	})
}

func TestFileListRoundTrip(t *testing.T) {
	files := []fileRecord{
		{id: 1, path: "a.c", st: fileState{size: 10, mtime: 1700000000123456789, ino: 42}, indexed: true, narrow: true},
		{id: 3, path: "a/b.go", st: fileState{mtime: -1, ino: 7}},
		{id: 4, path: "a/bc.go", st: fileState{size: 5, mtime: 5, ino: 8}, narrow: true},
	}
	got, err := decodeFiles(encodeFiles(files))
	if err != nil || !reflect.DeepEqual(got, files) {
		t.Fatalf("files: %v\n%+v\nwant\n%+v", err, got, files)
	}
	dirs := []dirState{{path: "", mtime: 3, ino: 4, ignores: "1:2;-;", names: "abc"}, {path: "a", mtime: 5, ino: 6, ignores: "-;-;", names: "d"}}
	gotDirs, err := decodeDirs(encodeDirs(dirs))
	if err != nil || !reflect.DeepEqual(gotDirs, dirs) {
		t.Fatalf("dirs: %v %+v", err, gotDirs)
	}
	b := encodeFiles(files)
	for n := range len(b) {
		if _, err := decodeFiles(b[:n]); err == nil {
			t.Fatalf("a list cut to %d of %d bytes decoded", n, len(b))
		}
	}
}
