package edit

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// readStamps guards one edit call against another program's write: the
// stat of each file when the call read it, compared again just before
// the call replaces it. A file that changed in between (an editor saved
// it, a formatter ran) is not overwritten with text made from the old
// content. gopi's own processes already take turns through
// atomicfile.Lock; this covers the programs that take no lock. A nil
// *readStamps checks nothing (a session whose tool.Files owns the
// files, or vim buffers read by an earlier call).
type readStamps struct {
	mu   sync.Mutex
	seen map[string]fileStamp
}

// fileStamp is what a change to a file's content changes in its stat;
// the zero stamp is a file that is not there.
type fileStamp struct {
	exists bool
	size   int64
	mtime  time.Time
	ino    uint64
}

// stampOf returns abs's stamp, following symbolic links.
func stampOf(abs string) fileStamp {
	fi, err := os.Stat(abs)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{exists: true, size: fi.Size(), mtime: fi.ModTime(), ino: inodeOf(fi)}
}

// note records abs's stamp as the call reads it: taken before the bytes
// are read, so a write during the read is caught too; a file that is not
// there is recorded as missing, so one created meanwhile is caught. The first read in
// a call is the one its text is made from; later reads keep it.
func (s *readStamps) note(abs string) {
	if s == nil {
		return
	}
	st := stampOf(abs)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, have := s.seen[abs]; have {
		return
	}
	if s.seen == nil {
		s.seen = map[string]fileStamp{}
	}
	s.seen[abs] = st
}

// check reports an error naming shown when abs changed since the call
// read it.
func (s *readStamps) check(abs, shown string) error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	was, have := s.seen[abs]
	s.mu.Unlock()
	if !have {
		return nil
	}
	if stampOf(abs) == was {
		return nil
	}
	return fmt.Errorf("%s changed on disk after this edit read it (another program wrote it); nothing was written: read it again and redo the edit", shown)
}

// wrote records abs's stamp after the call replaced it, so a second
// write of the same file in the call compares with the call's own.
func (s *readStamps) wrote(abs string) {
	if s == nil {
		return
	}
	if st := stampOf(abs); st.exists {
		s.mu.Lock()
		if s.seen == nil {
			s.seen = map[string]fileStamp{}
		}
		s.seen[abs] = st
		s.mu.Unlock()
	}
}
