package write

import (
	"archive/tar"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// tarBlock is the unit a tar stream is laid out in: headers, and each
// member's data padded with zeros to a multiple of it.
const tarBlock = 512

// rewriteTar copies the uncompressed tar stream r to w with e's member
// written: the first member of that name (a file or link) gets the new
// content in its place, later ones of the same name are dropped, and a
// member not found is added at the end, before the end-of-archive
// blocks. It reports whether a member was replaced.
//
// Every other member is copied as the raw blocks it was read from — its
// header blocks (long names, PAX records and all) and its data — so it
// stays byte for byte what it was; nothing is held in memory but one
// member's headers. tap sees each byte archive/tar reads and passes it on
// or holds it back as the walk decides.
func rewriteTar(w io.Writer, r io.Reader, e entryWrite) (replaced bool, err error) {
	out := bufio.NewWriterSize(w, 64<<10)
	t := &tarTap{r: r, out: out}
	tr := tar.NewReader(t)
	tw := tar.NewWriter(out)
	dropPad := false // the member before was replaced: its old padding goes with it
	for {
		// What Next reads is the previous member's padding (the first
		// pad bytes) followed by this member's header blocks.
		pad := int(blockPad(t.n))
		t.mode, t.held = tapHold, t.held[:0]
		hdr, err := tr.Next()
		lead, rest := t.held[:min(pad, len(t.held))], t.held[min(pad, len(t.held)):]
		switch {
		case dropPad:
			lead = nil
		case len(lead) < pad: // the stream ended inside the padding: complete it
			lead = append(bytes.Clone(lead), make([]byte, pad-len(lead))...)
		}
		if errors.Is(err, io.EOF) {
			return replaced, finishTar(out, tw, t, lead, rest, e, replaced)
		}
		if err != nil {
			return false, t.readErr(err)
		}
		if err := e.conflict(hdr.Name, hdr.Typeflag == tar.TypeDir); err != nil {
			return false, err
		}
		if _, err := out.Write(lead); err != nil {
			return false, err
		}
		if !e.is(hdr.Name) {
			if _, err := out.Write(rest); err != nil {
				return false, err
			}
			t.mode, dropPad = tapPass, false
			if _, err := io.Copy(io.Discard, tr); err != nil { // the data, passed on raw
				return false, t.readErr(err)
			}
			continue
		}
		t.mode, dropPad = tapDrop, true
		if _, err := io.Copy(io.Discard, tr); err != nil { // the old content, dropped
			return false, t.readErr(err)
		}
		if !replaced {
			if err := writeTarMember(tw, e.tarHeader(hdr), e.data); err != nil {
				return false, err
			}
			replaced = true
		}
	}
}

// finishTar ends the copy at the end of the archive: the last member's
// padding (lead), the new member when none was replaced, then the
// end-of-archive blocks as they were (two zero blocks when the archive
// had none) and whatever followed them.
func finishTar(out *bufio.Writer, tw *tar.Writer, t *tarTap, lead, trailer []byte, e entryWrite, replaced bool) error {
	if _, err := out.Write(lead); err != nil {
		return err
	}
	if !replaced {
		if err := writeTarMember(tw, e.tarHeader(nil), e.data); err != nil {
			return err
		}
	}
	if len(trailer) == 0 {
		trailer = make([]byte, 2*tarBlock)
	}
	if _, err := out.Write(trailer); err != nil {
		return err
	}
	if _, err := io.Copy(out, t.r); err != nil {
		return err
	}
	return out.Flush()
}

// writeTarMember writes one member through tw, padded to a whole block.
func writeTarMember(tw *tar.Writer, hdr *tar.Header, data []byte) error {
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("cannot write the member %s: %v", hdr.Name, err)
	}
	if _, err := tw.Write(data); err != nil {
		return err
	}
	return tw.Flush()
}

// newTar writes a tar stream holding e's member alone.
func newTar(w io.Writer, e entryWrite) error {
	tw := tar.NewWriter(w)
	if err := writeTarMember(tw, e.tarHeader(nil), e.data); err != nil {
		return err
	}
	return tw.Close()
}

// blockPad is how many zero bytes pad n bytes to a whole tar block.
func blockPad(n int64) int64 { return -n & (tarBlock - 1) }

// tapMode is what a tarTap does with the bytes read through it.
type tapMode int

const (
	tapHold tapMode = iota // keep them in held, for the walk to decide
	tapPass                // write them to out
	tapDrop                // forget them
)

// tarTap is the reader under archive/tar: it counts the bytes read from r
// and holds, passes or drops them as mode says.
type tarTap struct {
	r    io.Reader
	out  io.Writer
	mode tapMode
	held []byte
	n    int64 // bytes read so far
	werr error // the first error writing to out
}

// readErr describes err, from archive/tar reading through t: the write
// error that stopped it, or a damaged archive.
func (t *tarTap) readErr(err error) error {
	if t.werr != nil {
		return t.werr
	}
	return fmt.Errorf("it is not a valid tar archive (%v)", err)
}

// Read reads from r and handles what came as mode says.
func (t *tarTap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.n += int64(n)
	switch t.mode {
	case tapHold:
		t.held = append(t.held, p[:n]...)
	case tapPass:
		if _, werr := t.out.Write(p[:n]); werr != nil {
			t.werr = werr
			return n, werr
		}
	}
	return n, err
}
