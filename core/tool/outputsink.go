package tool

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/artifact"
)

// OutputSink collects a streamed output (a command's stdout and stderr)
// for a tool result: it keeps the last DefaultMaxBytes in memory and, once
// the output grows past that, spills the whole stream to a new artifact so
// nothing is lost. Without a store, or when the artifact cannot be
// created, only the tail survives. Safe for concurrent writers.
type OutputSink struct {
	store    *artifact.Store
	toolType string
	limit    int

	mu        sync.Mutex
	tail      []byte
	total     int64
	lines     int64
	lineLen   int64 // bytes after the last newline
	prevLine  int64 // bytes of the last line that ended with a newline
	truncated bool
	file      *cappedFile // the artifact, once spilled
	id        string
	fileErr   error
	fileMax   int64 // about the most bytes the artifact may hold; 0: no cap
}

// NewOutputSink returns a sink spilling to store (may be nil) as toolType
// artifacts ("bash", "python", …).
func NewOutputSink(store *artifact.Store, toolType string) *OutputSink {
	return &OutputSink{store: store, toolType: toolType, limit: DefaultMaxBytes}
}

// LimitArtifact caps the artifact at about n bytes (0: no cap): past it
// the artifact keeps the output's first and last n/2 bytes (cut at line
// ends where near), with a line between them saying how many bytes and
// lines were dropped; memory and disk use stay bounded whatever comes (on
// disk the cap, and half of it more for a moment while Close finishes the
// artifact).
// Call it before writing.
func (s *OutputSink) LimitArtifact(n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fileMax = max(n, 0)
}

// Write appends p. It never fails: spill errors only cost the full copy.
func (s *OutputSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total += int64(len(p))
	s.lines += int64(bytes.Count(p, []byte{'\n'}))
	if i := bytes.LastIndexByte(p, '\n'); i < 0 {
		s.lineLen += int64(len(p))
	} else {
		if j := bytes.LastIndexByte(p[:i], '\n'); j >= 0 {
			s.prevLine = int64(i - j - 1)
		} else {
			s.prevLine = s.lineLen + int64(i)
		}
		s.lineLen = int64(len(p) - i - 1)
	}
	if s.file != nil {
		s.file.write(p)
	}
	s.tail = append(s.tail, p...)
	if len(s.tail) > s.limit {
		if !s.truncated {
			s.truncated = true
			s.openSpill(s.tail)
		}
		cut := len(s.tail) - s.limit
		for cut < len(s.tail) && !utf8.RuneStart(s.tail[cut]) {
			cut++
		}
		s.tail = append(s.tail[:0], s.tail[cut:]...)
	}
	return len(p), nil
}

// openSpill creates the artifact and writes everything seen so far.
func (s *OutputSink) openSpill(seen []byte) {
	if s.store == nil {
		return
	}
	id, path, err := s.store.Allocate(s.toolType)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o755)
	}
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		s.fileErr = err
		return
	}
	s.file, s.id = newCappedFile(f, s.fileMax), id
	s.file.write(seen)
}

// Snapshot returns the tail kept so far and the number of bytes written,
// for live progress while the output is still coming.
func (s *OutputSink) Snapshot() (tail string, total int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.tail), s.total
}

// SinkSummary is what an OutputSink kept.
type SinkSummary struct {
	Output     string // the kept tail (the whole output when not truncated)
	Truncated  bool   // the output was larger than the tail
	TotalBytes int64  // bytes written
	TotalLines int64  // '\n' count plus one for a final unterminated line
	// LastLineBytes is the length of the output's last line (its final
	// newline not counted), however much of it Output holds.
	LastLineBytes int64
	ArtifactID    string // artifact holding the full output; "" when none
	// ArtifactDroppedBytes and ArtifactDroppedLines are what the artifact
	// lacks when the output went past the cap of LimitArtifact: the middle
	// of the output, this many bytes holding this many newlines, was
	// dropped (the artifact says so where it was). 0 when it holds
	// everything.
	ArtifactDroppedBytes, ArtifactDroppedLines int64
}

// Close finishes the spill file and returns the summary. Further writes
// are not allowed.
func (s *OutputSink) Close() (SinkSummary, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := SinkSummary{Output: string(s.tail), Truncated: s.truncated, TotalBytes: s.total, TotalLines: s.lines, LastLineBytes: s.lineLen}
	if s.lineLen == 0 {
		sum.LastLineBytes = s.prevLine
	}
	if s.total > 0 && !bytes.HasSuffix(s.tail, []byte{'\n'}) {
		sum.TotalLines++
	}
	var err error
	if s.file != nil {
		db, dl, cerr := s.file.close(s.lines)
		if cerr != nil && s.fileErr == nil {
			s.fileErr = cerr
		}
		s.file = nil
		if s.fileErr == nil {
			sum.ArtifactID = s.id
			sum.ArtifactDroppedBytes, sum.ArtifactDroppedLines = db, dl
		}
	}
	if s.fileErr != nil {
		err = fmt.Errorf("save full output: %w", s.fileErr)
	}
	return sum, err
}

// FullOutputNotice is the line appended to a truncated output that was
// saved whole: "Full: artifact://<id>".
func FullOutputNotice(id string) string { return "Full: " + artifact.URL(id) }
