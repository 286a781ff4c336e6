package write

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// rewriteZip writes to w the zip archive read from r (size bytes) with
// e's member written: the first member of that name gets the new content
// in its place, later ones of the same name are dropped, and a member not
// found is added at the end. It reports whether a member was replaced.
//
// Every other member is copied raw (zip.Writer.Copy): its compressed data
// unchanged, with its name, compression method, times, attributes, extra
// fields and comment, in the order they were; the archive's comment is
// kept. Data is streamed from r, never held whole.
func rewriteZip(w io.Writer, r io.ReaderAt, size int64, e entryWrite) (replaced bool, err error) {
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return false, fmt.Errorf("it is not a valid zip archive (%v)", err)
	}
	for _, f := range zr.File {
		if err := e.conflict(f.Name, f.FileInfo().IsDir()); err != nil {
			return false, err
		}
	}
	zw := zip.NewWriter(w)
	if err := zw.SetComment(zr.Comment); err != nil {
		return false, err
	}
	for _, f := range zr.File {
		if !e.is(f.Name) {
			if err := copyZipMember(zw, f); err != nil {
				return false, fmt.Errorf("cannot copy the member %s: %v", f.Name, err)
			}
			continue
		}
		if !replaced {
			if err := writeZipMember(zw, e.zipHeader(&f.FileHeader), e.data); err != nil {
				return false, err
			}
			replaced = true
		}
	}
	if !replaced {
		if err := writeZipMember(zw, e.zipHeader(nil), e.data); err != nil {
			return false, err
		}
	}
	return replaced, zw.Close()
}

// copyZipMember copies f raw. A directory is written anew from its
// header (times and extra fields as they were): zip.Writer takes no data
// for one, while some archivers store an empty deflate stream there.
func copyZipMember(zw *zip.Writer, f *zip.File) error {
	if !strings.HasSuffix(f.Name, "/") {
		return zw.Copy(f)
	}
	fh := f.FileHeader
	fh.Modified = time.Time{} // keep the stored date fields and extra timestamps rather than add another
	_, err := zw.CreateHeader(&fh)
	return err
}

// newZip writes a zip archive holding e's member alone.
func newZip(w io.Writer, e entryWrite) error {
	zw := zip.NewWriter(w)
	if err := writeZipMember(zw, e.zipHeader(nil), e.data); err != nil {
		return err
	}
	return zw.Close()
}

// writeZipMember adds one member to zw.
func writeZipMember(zw *zip.Writer, fh *zip.FileHeader, data []byte) error {
	mw, err := zw.CreateHeader(fh)
	if err != nil {
		return fmt.Errorf("cannot write the member %s: %v", fh.Name, err)
	}
	_, err = mw.Write(data)
	return err
}
