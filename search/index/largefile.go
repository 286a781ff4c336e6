package index

import (
	"bytes"
	"io"
	"os"
)

// Files up to wholeReadMax bytes are read whole to be indexed; larger
// ones (generated headers of tens of megabytes: the kernel tree has 35
// over 4 MiB, 286 MiB together) are read in chunks of largeChunk bytes,
// so a build's memory does not grow with the largest file. Indexing them
// matters to queries: a file left out of the postings is read by every
// query, and those 35 files were most of a selective query's time.
const (
	wholeReadMax = 4 << 20
	largeChunk   = 1 << 20
)

// readLarge indexes the large file abs (stat'ed as before) chunk by
// chunk with the same rules as a whole read: a NUL byte anywhere or a
// UTF-16 byte-order mark leaves it unindexed, and a file that changes
// while it is read is returned with a time that never matches. The
// trigrams are valid until the set's next use.
func readLarge(abs string, before fileState, set *trigramSet) (st fileState, tris []Trigram, indexed bool) {
	file, err := os.Open(abs)
	if err != nil {
		return before, nil, false
	}
	defer file.Close()
	buf := make([]byte, largeChunk)
	set.add(nil) // clears the set
	var t Trigram
	var seen int64
	text := true
	for {
		n, err := io.ReadFull(file, buf)
		chunk := buf[:n]
		if seen == 0 && !textual(chunk) || bytes.IndexByte(chunk, 0) >= 0 {
			text = false
		}
		if text {
			set.feed(&t, seen, chunk)
		}
		seen += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return before, nil, false
		}
	}
	if after, ok := statFile(abs); !ok || after != before || seen != before.size {
		before.mtime = -1 // changed under us: never trusted
		return before, nil, false
	}
	if !text {
		return before, nil, false
	}
	return before, set.list, true
}

// feed adds the trigrams ending in chunk, the bytes of a text from
// offset at on; t carries the last two bytes before it (the caller's,
// zero at the start).
func (s *trigramSet) feed(t *Trigram, at int64, chunk []byte) {
	for at < 2 && len(chunk) > 0 {
		*t = (*t<<8 | Trigram(chunk[0])) & 0xffffff
		chunk = chunk[1:]
		at++
	}
	v := *t
	for _, b := range chunk {
		v = (v<<8 | Trigram(b)) & 0xffffff
		if w, m := v>>6, uint64(1)<<(v&63); s.bits[w]&m == 0 {
			s.bits[w] |= m
			s.list = append(s.list, v)
		}
	}
	*t = v
}
