package session

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// LineProblem is a line of a session file that could not be used, or an
// entry whose blob could not be restored. Unusable lines are skipped when
// building the context but kept, unchanged and in place, in the file.
type LineProblem struct {
	Line    int    // 1-based line number in the file as loaded
	Err     string // what is wrong
	Skipped bool   // the line was left out of the session (it stays in the file)
}

func (p LineProblem) String() string {
	if p.Skipped {
		return fmt.Sprintf("line %d skipped: %s", p.Line, p.Err)
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Err)
}

// fileLine is one line after the header: an entry, or a line kept verbatim.
type fileLine struct {
	raw   []byte
	entry *Entry // nil for a line that is not a usable entry
}

// parsedFile is a session file split into its parts.
type parsedFile struct {
	header    Header
	headerRaw []byte
	lines     []fileLine
	entries   []*Entry
	problems  []LineProblem
	migrated  bool
}

// errEmpty reports a file with no non-blank line.
var errEmpty = fmt.Errorf("empty session file")

// parseFile parses a whole session file: the header, then every line as an
// entry, migrating v1 and v2 content to v3 in memory (migrated tells the
// caller to rewrite). Malformed lines become problems and are kept; blob
// references in message content are restored from blobs.
func parseFile(data []byte, blobs *BlobStore, rnd io.Reader) (*parsedFile, error) {
	type rawLine struct {
		b  []byte
		no int
	}
	lines := make([]rawLine, 0, bytes.Count(data, []byte{'\n'})+1)
	no := 0
	for len(data) > 0 {
		no++
		i := bytes.IndexByte(data, '\n')
		var l []byte
		if i < 0 {
			l, data = data, nil
		} else {
			l, data = data[:i:i], data[i+1:]
		}
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, rawLine{l, no})
		}
	}
	if len(lines) == 0 {
		return nil, errEmpty
	}
	h, err := parseHeader(lines[0].b)
	if err != nil {
		return nil, err
	}
	p := &parsedFile{header: h, headerRaw: lines[0].b}
	body := lines[1:]
	p.lines = make([]fileLine, len(body))
	valid := make([]bool, len(body))
	for i, l := range body {
		p.lines[i].raw = l.b
		valid[i] = true
	}
	if h.Version < 3 {
		// Migrations edit lines, so they must know which are valid first;
		// for current files the envelope pass below validates.
		for i, l := range body {
			if err := eachMember(l.b, func(member) bool { return true }); err != nil {
				p.problems = append(p.problems, LineProblem{Line: l.no, Err: err.Error(), Skipped: true})
				valid[i] = false
			}
		}
		if h.Version < 2 {
			migrateV1(p, valid, rnd)
		}
		migrateV2(p, valid)
		p.headerRaw = objSet(p.headerRaw, "version", []byte("3"))
		p.header.Version = CurrentVersion
		p.migrated = true
	}

	// Envelopes: every line is validated here, on all CPUs. Messages
	// (nearly all of a file's bytes) are decoded when first needed
	// (lazy.go); the other payloads are small and decoded here.
	errs := make([]error, len(body)) // of the envelope, else of the payload
	decodeAll(len(body), func(i int) {
		if !valid[i] {
			return
		}
		e, msg, head, err := envelope(p.lines[i].raw)
		if err != nil {
			errs[i] = err
			return
		}
		e.line = body[i].no
		p.lines[i].entry = e
		if e.Type == TypeMessage && msg != nil {
			e.pending, e.head = msg, head
			return
		}
		errs[i] = e.decodePayload(e.raw, msg)
	})
	cache := blobCache{store: blobs}
	p.entries = make([]*Entry, 0, len(body))
	for i := range body {
		e := p.lines[i].entry
		if e == nil {
			if valid[i] {
				p.problems = append(p.problems, LineProblem{Line: body[i].no, Err: errs[i].Error(), Skipped: true})
			}
			continue
		}
		if e.pending == nil {
			// A message entry is pending unless it has no message.
			p.problems = append(p.problems, payloadProblems(e, nil, errs[i], &cache)...)
		}
		p.entries = append(p.entries, e)
	}
	sortProblems(p.problems)
	return p, nil
}

// payloadProblems finishes the decoding of an entry's payload: a payload
// that could not be decoded (err) is reported and, for a message, kept as
// an opaque message; blob references in its images are restored. msg is
// the message's JSON for a message entry.
func payloadProblems(e *Entry, msg []byte, err error, cache *blobCache) []LineProblem {
	var out []LineProblem
	if err != nil {
		out = append(out, LineProblem{Line: e.line, Err: err.Error() + " (kept as an unknown entry)"})
		if e.Type == TypeMessage {
			e.Message = &ai.OpaqueMessage{Role: roleOf(msg), Raw: msg}
		}
	}
	for _, img := range imagesOf(e) {
		if !strings.HasPrefix(img.Data, BlobPrefix) {
			continue
		}
		data, err := cache.resolve(img.Data)
		if err != nil {
			out = append(out, LineProblem{Line: e.line, Err: "image not found, sent as a placeholder: " + err.Error()})
			continue
		}
		img.Data = data
	}
	return out
}

// envelope reads the members every entry has, and the head of its
// message (see msgHead). The entry's raw is line.
func envelope(line []byte) (*Entry, []byte, msgHead, error) {
	e := &Entry{raw: line}
	var msg []byte
	var head msgHead
	var typeOK, idOK, parentOK = false, false, true
	scan := func(key member, d []byte, i int) (int, error) {
		if key.is("message") && i < len(d) && d[i] == '{' {
			end, h, err := scanHead(d, i)
			head = h
			return end, err
		}
		return skipValue(d, i, 1)
	}
	err := eachMemberScan(line, scan, func(m member) bool {
		switch {
		case m.is("type"):
			e.Type, typeOK = typeValue(m.Value)
		case m.is("id"):
			e.ID, idOK = stringValue(m.Value)
		case m.is("parentId"):
			if string(m.Value) == "null" {
				e.ParentID, parentOK = "", true
			} else {
				e.ParentID, parentOK = stringValue(m.Value)
			}
		case m.is("timestamp"):
			e.Timestamp, _ = stringValue(m.Value)
		case m.is("message"):
			msg = m.Value
			if len(msg) == 0 || msg[0] != '{' {
				head = msgHead{}
			}
		}
		return true
	})
	switch {
	case err != nil:
		return nil, nil, msgHead{}, err
	case !typeOK:
		return nil, nil, msgHead{}, fmt.Errorf("entry has no type")
	case !idOK || e.ID == "":
		return nil, nil, msgHead{}, fmt.Errorf("%s entry has no id", e.Type)
	case !parentOK:
		return nil, nil, msgHead{}, fmt.Errorf("%s entry %s: parentId is neither a string nor null", e.Type, e.ID)
	}
	return e, msg, head, nil
}

// typeValue is stringValue for an entry's type, without allocating for
// the types this package knows.
func typeValue(v []byte) (string, bool) {
	if len(v) >= 2 && v[0] == '"' {
		switch string(v[1 : len(v)-1]) {
		case TypeMessage:
			return TypeMessage, true
		case TypeModelChange:
			return TypeModelChange, true
		case TypeThinkingLevelChange:
			return TypeThinkingLevelChange, true
		case TypeCompaction:
			return TypeCompaction, true
		case TypeBranchSummary:
			return TypeBranchSummary, true
		case TypeCustom:
			return TypeCustom, true
		case TypeCustomMessage:
			return TypeCustomMessage, true
		case TypeLabel:
			return TypeLabel, true
		}
	}
	return stringValue(v)
}

// decodeAll runs fn(0..n-1) on up to GOMAXPROCS goroutines, returning when
// all are done.
func decodeAll(n int, fn func(int)) {
	workers := min(runtime.GOMAXPROCS(0), n/256+1)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min(n, (w+1)*chunk)
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// imagesOf returns the image blocks of an entry's content (where blob
// references are restored on load, as omp restores them).
func imagesOf(e *Entry) []*ai.ImageContent {
	var content ai.ContentList
	switch {
	case e.CustomMessage != nil:
		content = e.CustomMessage.Content.Blocks
	case e.Message != nil:
		switch m := e.Message.(type) {
		case *ai.UserMessage:
			content = m.Content
		case *ai.AssistantMessage:
			content = m.Content
		case *ai.ToolResultMessage:
			content = m.Content
		case *message.Custom:
			content = m.Content.Blocks
		}
	}
	var out []*ai.ImageContent
	for _, c := range content {
		if img, ok := c.(*ai.ImageContent); ok {
			out = append(out, img)
		}
	}
	return out
}

func roleOf(msg []byte) ai.Role {
	r, _ := stringValue(objGet(msg, "role"))
	return ai.Role(r)
}

func sortProblems(ps []LineProblem) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].Line < ps[j-1].Line; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}
