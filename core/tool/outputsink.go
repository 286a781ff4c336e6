package tool

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf8"
)

// OutputSink collects a streamed output (a command's stdout and stderr)
// for a tool result: it keeps the last DefaultMaxBytes in memory and, once
// the output grows past that, spills the whole stream to a new artifact so
// nothing is lost. Without a store, or when the artifact cannot be
// created, only the tail survives. Safe for concurrent writers.
type OutputSink struct {
	mu        sync.Mutex
	store     *ArtifactStore
	toolType  string
	limit     int
	tail      []byte
	total     int64
	lines     int64
	truncated bool
	file      *os.File
	id        string
	fileErr   error
	fileMax   int64 // most bytes the artifact may hold; 0: no cap
	fileSize  int64 // bytes written to the artifact
	fileCut   bool  // output went past fileMax and was not saved
}

// NewOutputSink returns a sink spilling to store (may be nil) as toolType
// artifacts ("bash", "python", …).
func NewOutputSink(store *ArtifactStore, toolType string) *OutputSink {
	return &OutputSink{store: store, toolType: toolType, limit: DefaultMaxBytes}
}

// LimitArtifact caps the artifact at n bytes (0: no cap): output past it
// is counted and its tail kept, but not saved. Call it before writing.
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
	if s.file != nil {
		s.save(p)
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
	s.file, s.id = f, id
	s.save(seen)
}

// save writes p to the artifact, up to its cap.
func (s *OutputSink) save(p []byte) {
	if s.fileMax > 0 && s.fileSize+int64(len(p)) > s.fileMax {
		p = p[:s.fileMax-s.fileSize]
		s.fileCut = true
	}
	if len(p) == 0 {
		return
	}
	n, err := s.file.Write(p)
	s.fileSize += int64(n)
	if err != nil && s.fileErr == nil {
		s.fileErr = err
	}
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
	ArtifactID string // artifact holding the full output; "" when none
	// ArtifactCut is the size the artifact was cut at when the output went
	// past the cap of LimitArtifact (it holds the first ArtifactCut bytes
	// only); 0 when it holds everything.
	ArtifactCut int64
}

// Close finishes the spill file and returns the summary. Further writes
// are not allowed.
func (s *OutputSink) Close() (SinkSummary, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := SinkSummary{Output: string(s.tail), Truncated: s.truncated, TotalBytes: s.total, TotalLines: s.lines}
	if s.total > 0 && !bytes.HasSuffix(s.tail, []byte{'\n'}) {
		sum.TotalLines++
	}
	var err error
	if s.file != nil {
		if cerr := s.file.Close(); cerr != nil && s.fileErr == nil {
			s.fileErr = cerr
		}
		s.file = nil
		if s.fileErr == nil {
			sum.ArtifactID = s.id
			if s.fileCut {
				sum.ArtifactCut = s.fileSize
			}
		}
	}
	if s.fileErr != nil {
		err = fmt.Errorf("save full output: %w", s.fileErr)
	}
	return sum, err
}

// FullOutputNotice is the line appended to a truncated output that was
// saved whole: "Full: artifact://<id>".
func FullOutputNotice(id string) string { return "Full: " + ArtifactURL(id) }
