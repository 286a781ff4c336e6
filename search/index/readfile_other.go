//go:build !linux

package index

import (
	"os"
	"path/filepath"
)

// read returns a listed file's state and, when it is to be indexed, its
// text; large is true for a file to be read in chunks instead
// (readLarge). ok is false when the file is gone or is not a regular file.
func (r *fileReader) read(o *Options, rel string) (st fileState, ok bool, text []byte, large bool) {
	abs := filepath.Join(o.Root, filepath.FromSlash(rel))
	before, ok := statFile(abs)
	if !ok {
		return fileState{}, false, nil, false
	}
	if o.afterStat != nil {
		o.afterStat(rel)
	}
	if before.size > o.maxFileSize() {
		return before, true, nil, false
	}
	if before.size > wholeReadMax {
		return before, true, nil, true
	}
	text, err := os.ReadFile(abs)
	if err != nil {
		return before, true, nil, false
	}
	if after, ok := statFile(abs); !ok || after != before || int64(len(text)) != before.size {
		before.mtime = -1 // changed under us: never trusted
		return before, true, nil, false
	}
	return before, true, text, false
}
