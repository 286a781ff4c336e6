package index

import (
	"encoding/binary"
	"errors"
)

// fileRecord is one file as the index records it: its id (the postings
// name it by id), its relative slash path, its stat when it was indexed,
// whether its text is in the postings and whether the walk that leaves
// hidden files out lists it too.
type fileRecord struct {
	id      int64
	path    string
	st      fileState
	indexed bool
	narrow  bool
}

// errBadList: a file or directory list blob does not decode.
var errBadList = errors.New("index: malformed file list")

// The file list is one blob (lists.name = 'files'), read and written
// whole: a query reads it in one step instead of one row per file.
// Layout: uvarint count, then per file in id order: uvarint id gap,
// uvarint bytes shared with the previous path, uvarint length and bytes
// of the rest, uvarint size, varint mtime, uvarint inode, one flag byte
// (1: indexed, 2: narrow).

// encodeFiles writes files (ascending ids) as the blob.
func encodeFiles(files []fileRecord) []byte {
	b := binary.AppendUvarint(make([]byte, 0, 32*len(files)), uint64(len(files)))
	var prevID int64
	prev := ""
	for _, f := range files {
		b = binary.AppendUvarint(b, uint64(f.id-prevID))
		b = appendShared(b, prev, f.path)
		b = binary.AppendUvarint(b, uint64(f.st.size))
		b = binary.AppendVarint(b, f.st.mtime)
		b = binary.AppendUvarint(b, uint64(f.st.ino))
		b = append(b, byte(boolInt(f.indexed)|boolInt(f.narrow)<<1))
		prevID, prev = f.id, f.path
	}
	return b
}

// decodeFiles reads the blob encodeFiles wrote.
func decodeFiles(b []byte) ([]fileRecord, error) {
	var out []fileRecord
	err := scanFiles(b, func(f *fileRecord, path []byte) {
		if out == nil {
			out = make([]fileRecord, 0, 1024)
		}
		r := *f
		r.path = string(path)
		out = append(out, r)
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []fileRecord{}
	}
	return out, nil
}

// scanFiles calls fn for each file of the blob in id order, with the
// record (its path field empty) and its path in a buffer reused by the
// next call: a query that needs a few paths builds only those. A blob
// that does not decode stops the scan with errBadList (fn may have seen
// a prefix of it).
func scanFiles(b []byte, fn func(f *fileRecord, path []byte)) error {
	d := listDecoder{b: b}
	n := d.uvarint()
	if n > uint64(len(b)) {
		return errBadList
	}
	var f fileRecord
	var path []byte
	for i := range n {
		gap := d.uvarint()
		if gap == 0 && i > 0 {
			return errBadList // ids ascend
		}
		f.id += int64(gap)
		shared := d.uvarint()
		if shared > uint64(len(path)) {
			return errBadList
		}
		rest := d.uvarint()
		if d.err != nil || rest > uint64(len(d.b)) {
			return errBadList
		}
		path = append(path[:shared], d.b[:rest]...)
		d.b = d.b[rest:]
		f.st.size = int64(d.uvarint())
		f.st.mtime = d.varint()
		f.st.ino = int64(d.uvarint())
		flags := d.byte()
		f.indexed, f.narrow = flags&1 != 0, flags&2 != 0
		if d.err != nil {
			return d.err
		}
		fn(&f, path)
	}
	if d.err != nil || len(d.b) != 0 {
		return errBadList
	}
	return nil
}

// encodeDirs writes the directory list blob (lists.name = 'dirs'):
// uvarint count, then per directory its path (shared with the previous
// one), varint mtime, uvarint inode, the ignore files' stat and the
// digest of its entry names, each as uvarint length and bytes.
func encodeDirs(dirs []dirState) []byte {
	b := binary.AppendUvarint(nil, uint64(len(dirs)))
	prev := ""
	for _, d := range dirs {
		b = appendShared(b, prev, d.path)
		b = binary.AppendVarint(b, d.mtime)
		b = binary.AppendUvarint(b, uint64(d.ino))
		b = appendString(b, d.ignores)
		b = appendString(b, d.names)
		prev = d.path
	}
	return b
}

// decodeDirs reads the blob encodeDirs wrote.
func decodeDirs(b []byte) ([]dirState, error) {
	d := listDecoder{b: b}
	n := d.uvarint()
	if n > uint64(len(b)) {
		return nil, errBadList
	}
	out := make([]dirState, 0, n)
	prev := ""
	for range n {
		s := dirState{path: d.shared(prev)}
		s.mtime = d.varint()
		s.ino = int64(d.uvarint())
		s.ignores = d.string()
		s.names = d.string()
		if d.err != nil {
			return nil, d.err
		}
		out = append(out, s)
		prev = s.path
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, errBadList
	}
	return out, nil
}

// appendShared appends s as the length of its prefix shared with prev
// and the rest.
func appendShared(b []byte, prev, s string) []byte {
	n := 0
	for n < len(prev) && n < len(s) && prev[n] == s[n] {
		n++
	}
	b = binary.AppendUvarint(b, uint64(n))
	return appendString(b, s[n:])
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// listDecoder reads a list blob; the first error sticks and every later
// read returns zero.
type listDecoder struct {
	b   []byte
	err error
}

func (d *listDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errBadList
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *listDecoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errBadList
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *listDecoder) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.err = errBadList
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *listDecoder) string() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errBadList
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// shared reads what appendShared wrote.
func (d *listDecoder) shared(prev string) string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(prev)) {
		d.err = errBadList
		return ""
	}
	return prev[:n] + d.string()
}
