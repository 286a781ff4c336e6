package session

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/artifact"
)

// Options configures a Manager.
type Options struct {
	Cwd           string           // working directory recorded in a new session's header
	Dir           string           // directory new session files are created in (Create, Fork; Open defaults it to the file's): see Locations.NewSessionDir
	BlobDir       string           // blob store, <agent dir>/blobs; "" keeps images inline in the file
	BlobFallback  []string         // blob directories only read from, after BlobDir (omp's ~/.omp/agent/blobs)
	Sync          SyncPolicy       // when appends are fsynced; default SyncAlways
	ParentSession string           // header parentSession of a new session
	Now           func() time.Time // clock; nil means time.Now
	Rand          io.Reader        // source of session and entry ids; nil means crypto/rand
}

// Manager is one session: its header, its entries as a tree with a leaf
// pointer, and (unless in memory) its file. Methods are safe for
// concurrent use. A Manager starts no goroutines.
type Manager struct {
	// Set when the Manager is made, never changed after.
	opts  Options
	blobs *BlobStore
	disk  *diskFile // nil for an in-memory session; its state is guarded by mu

	mu           sync.Mutex // guards the fields below
	header       Header
	headerRaw    []byte // the header line as stored; nil until written or when it must be re-encoded
	entries      []*Entry
	byID         map[string]*Entry
	labels       map[string]string
	leaf         string // "" is the null leaf: the next append is a root
	problems     []LineProblem
	cache        blobCache // blobs restored so far (messages are decoded on demand, lazy.go)
	onDisk       bool      // the file holds every entry persisted so far: new ones are appended
	hasAssistant bool      // some entry is an assistant message
	err          error     // first persistence error, returned from then on
	artifacts    *artifact.Store
}

// InMemory returns a session that is never written to disk.
func InMemory(cwd string) *Manager {
	m := newManager(Options{Cwd: cwd})
	m.header = m.newHeader()
	return m
}

// Create starts a new session whose file will be
// <opts.Dir>/<timestamp>_<id>.jsonl. Nothing is written until the first
// assistant message is appended (or EnsureOnDisk is called); then the whole
// session is written and later entries are appended.
func Create(opts Options) (*Manager, error) {
	if opts.Dir == "" {
		return nil, errors.New("create session: no session directory given")
	}
	m := newManager(opts)
	m.header = m.newHeader()
	m.disk = &diskFile{path: filepath.Join(opts.Dir, fileName(m.header)), sync: opts.Sync}
	return m, nil
}

// Open loads the session file at path, migrating it to the current version
// (and rewriting it) when it is older. A missing or empty file starts a new
// session at that path, written at once. A file whose first line is not a
// session header is refused (ErrInvalidHeader), as is a file from a newer
// version (ErrNewerVersion); neither is modified. Lines that cannot be used
// are reported by Problems and kept in the file.
func Open(path string, opts Options) (*Manager, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	if opts.Dir == "" {
		opts.Dir = filepath.Dir(abs)
	}
	m := newManager(opts)
	m.disk = &diskFile{path: abs, sync: opts.Sync}
	var parsed *parsedFile
	err = m.disk.rewrite(func(current []byte) ([]byte, error) {
		p, err := parseFile(current, m.blobs, m.opts.Rand)
		switch {
		case errors.Is(err, errEmpty):
			m.header = m.newHeader()
			return m.fileContent(), nil
		case err != nil:
			return nil, err
		}
		parsed = p
		if !p.migrated {
			return nil, errNoRewrite
		}
		return linesContent(p), nil
	})
	switch {
	case errors.Is(err, errNoRewrite):
	case errors.Is(err, ErrInvalidHeader) || errors.Is(err, ErrNewerVersion):
		m.disk.closeFile()
		return nil, fmt.Errorf("open session %s: %w", abs, err)
	case err != nil && parsed == nil:
		m.disk.closeFile()
		return nil, fmt.Errorf("open session %s: %w", abs, err)
	case err != nil:
		// Loaded, but the migration could not be written: keep the session
		// usable in memory and report the error from every later write.
		m.err = fmt.Errorf("rewrite migrated session %s: %w", abs, err)
	}
	if parsed != nil {
		m.load(parsed)
	}
	m.onDisk = true
	return m, nil
}

// errNoRewrite tells diskFile.rewrite to leave the file as it is.
var errNoRewrite = errors.New("no rewrite needed")

func newManager(opts Options) *Manager {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Rand == nil {
		opts.Rand = rand.Reader
	}
	m := &Manager{opts: opts, byID: map[string]*Entry{}, labels: map[string]string{}}
	if opts.BlobDir != "" {
		m.blobs = &BlobStore{Dir: opts.BlobDir, Fallback: opts.BlobFallback}
	}
	return m
}

// load installs a parsed file.
func (m *Manager) load(p *parsedFile) {
	m.header, m.headerRaw = p.header, p.headerRaw
	m.problems = p.problems
	m.entries = slices.Grow(m.entries[:0], len(p.entries))
	if len(m.byID) == 0 {
		m.byID = make(map[string]*Entry, len(p.entries))
	} else {
		clear(m.byID)
	}
	clear(m.labels)
	for _, e := range p.entries {
		m.index(e)
	}
	if n := len(m.entries); n > 0 {
		m.leaf = m.entries[n-1].ID
		// What the session sends next is decoded now, so that Problems
		// reports its messages (the rest waits until needed, lazy.go).
		m.decodeContext(pathTo(m.byID, m.entries[n-1]))
	}
	if m.opts.Cwd == "" {
		m.opts.Cwd = m.header.Cwd
	}
}

// index adds an entry to the in-memory tree without moving the leaf.
func (m *Manager) index(e *Entry) {
	m.entries = append(m.entries, e)
	m.byID[e.ID] = e
	if e.Label != nil {
		if e.Label.Label != "" {
			m.labels[e.Label.TargetID] = e.Label.Label
		} else {
			delete(m.labels, e.Label.TargetID)
		}
	}
	if _, ok := e.Message.(*ai.AssistantMessage); ok || e.pending != nil && e.head.roleKnown && e.head.role == string(ai.RoleAssistant) {
		m.hasAssistant = true
	}
}

func (m *Manager) newHeader() Header {
	return Header{Version: CurrentVersion, ID: newSessionID(m.opts.Rand, m.opts.Now()), Timestamp: isoTime(m.opts.Now()),
		Cwd: m.opts.Cwd, ParentSession: m.opts.ParentSession}
}

// fileContent returns the whole file as this Manager would write it.
func (m *Manager) fileContent() []byte {
	out := append(m.headerLine(), '\n')
	for _, e := range m.entries {
		out = append(append(out, e.raw...), '\n')
	}
	return out
}

func (m *Manager) headerLine() []byte {
	if m.headerRaw == nil {
		m.headerRaw = m.header.encode()
	}
	return m.headerRaw
}

// linesContent returns a parsed file's header and lines (as migrated).
func linesContent(p *parsedFile) []byte {
	out := append(append([]byte(nil), p.headerRaw...), '\n')
	for _, l := range p.lines {
		out = append(append(out, l.raw...), '\n')
	}
	return out
}

// ---- persistence ----

// prepareRaw gives every entry that has none its persisted form.
func (m *Manager) prepareRaw() error {
	for _, e := range m.entries {
		if e.raw != nil {
			continue
		}
		enc, err := e.encode()
		if err != nil {
			return err
		}
		if e.raw, err = prepare(enc, m.blobs); err != nil {
			return err
		}
	}
	return nil
}

// persist writes a newly appended entry, or the whole session when it is
// not on disk yet and may now be (an assistant message exists).
func (m *Manager) persist(e *Entry) error {
	if m.disk == nil {
		return nil
	}
	if m.err != nil {
		return m.err
	}
	if !m.onDisk {
		if !m.hasAssistant {
			return nil
		}
		return m.latch(m.rewrite())
	}
	if err := m.prepareRaw(); err != nil {
		return m.latch(err)
	}
	err := m.disk.appendLine(e.raw)
	if errors.Is(err, fs.ErrNotExist) {
		// The file was removed under us: write it again whole.
		err = m.rewrite()
	}
	return m.latch(err)
}

func (m *Manager) latch(err error) error {
	if err != nil && m.err == nil {
		m.err = fmt.Errorf("session %s is no longer being saved: %w", m.disk.path, err)
	}
	return m.err
}

// rewrite replaces the file with the session, merged with what the file
// holds now: lines of the file are kept in their order (lines this Manager
// knows by entry id are written in its form; lines it does not know —
// entries another process appended, malformed lines — verbatim), entries
// the file lacks follow at the end. Entries found only in the file join
// the tree (the leaf does not move).
func (m *Manager) rewrite() error {
	if err := m.prepareRaw(); err != nil {
		return err
	}
	var order []*Entry
	err := m.disk.rewrite(func(current []byte) ([]byte, error) {
		out, o, err := m.merge(current)
		order = o
		return out, err
	})
	if err != nil {
		return err
	}
	m.entries = m.entries[:0]
	for _, e := range order {
		if m.byID[e.ID] == nil {
			m.index(e)
		} else {
			m.entries = append(m.entries, e)
		}
	}
	m.onDisk = true
	return nil
}

// merge builds the new file content from current (see rewrite) and the
// entries in their new order.
func (m *Manager) merge(current []byte) ([]byte, []*Entry, error) {
	pending := map[string][]*Entry{}
	for _, e := range m.entries {
		pending[e.ID] = append(pending[e.ID], e)
	}
	out := append(append([]byte(nil), m.headerLine()...), '\n')
	order := make([]*Entry, 0, len(m.entries))
	first := true
	for len(current) > 0 {
		i := bytes.IndexByte(current, '\n')
		var line []byte
		if i < 0 {
			line, current = current, nil
		} else {
			line, current = current[:i:i], current[i+1:]
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if first {
			first = false
			h, err := parseHeader(line)
			if err != nil {
				return nil, nil, fmt.Errorf("the file on disk changed: %w", err)
			}
			if h.Version < CurrentVersion {
				return nil, nil, fmt.Errorf("the file on disk was replaced by a version %d file", h.Version)
			}
			continue
		}
		e, msg, _, err := envelope(line)
		if err == nil {
			// Same id and same bytes: our entry (or the line a pruned
			// entry replaces). Same id, other bytes: an entry another
			// process wrote under a colliding id; keep both.
			if q := pending[e.ID]; len(q) > 0 && (bytes.Equal(q[0].raw, line) || q[0].replaces != nil && bytes.Equal(q[0].replaces, line)) {
				pending[e.ID] = q[1:]
				out = append(append(out, q[0].raw...), '\n')
				order = append(order, q[0])
				continue
			}
			e.raw = bytes.Clone(line)
			if e.decodePayload(e.raw, msg) == nil {
				order = append(order, e)
			}
		}
		out = append(append(out, line...), '\n')
	}
	for _, e := range m.entries {
		if q := pending[e.ID]; len(q) > 0 && q[0] == e {
			pending[e.ID] = q[1:]
			out = append(append(out, e.raw...), '\n')
			order = append(order, e)
		}
	}
	return out, order, nil
}

// ---- accessors ----

// Err returns the first persistence error, if any. Once set, the session
// keeps working in memory but nothing more is written.
func (m *Manager) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// Problems returns the lines of the file that could not be used: lines
// that are not entries (found when the file was loaded), payloads that
// could not be decoded and images whose blob is missing. Messages are
// decoded when first needed (see lazy.go): those of the context at the
// leaf when the file is loaded, the others when asked for, so a message
// off that context that nothing has needed yet is not reported even if it
// cannot be decoded.
func (m *Manager) Problems() []LineProblem {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]LineProblem(nil), m.problems...)
}

// Header returns the session header.
func (m *Manager) Header() Header {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.header
}

// SessionID returns the session id.
func (m *Manager) SessionID() string { return m.Header().ID }

// File returns the session file's path ("" for an in-memory session). The
// file may not exist yet (see Create).
func (m *Manager) File() string {
	if m.disk == nil {
		return ""
	}
	return m.disk.path
}

// Name returns the session's display name ("" when unset).
func (m *Manager) Name() string { return m.Header().Title }

// Title sources for SetName.
const (
	TitleAuto = "auto" // generated from the conversation
	TitleUser = "user" // set by the user; never replaced by an automatic one
)

// SetName sets the session's display name (header title and titleSource)
// and rewrites the file if it exists. An automatic name never replaces one
// the user set; control characters become spaces, runs of spaces one, and
// a name empty after that is ignored. changed reports whether the name was
// taken.
func (m *Manager) SetName(name, source string) (changed bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if source != TitleUser {
		source = TitleAuto
	}
	if m.header.TitleSource == TitleUser && source == TitleAuto {
		return false, nil
	}
	name = sanitizeName(name)
	if name == "" {
		return false, nil
	}
	m.header.Title, m.header.TitleSource = name, source
	if m.headerRaw != nil {
		m.headerRaw = objSet(objSet(m.headerRaw, "title", quoted(name)), "titleSource", quoted(source))
	}
	if m.disk == nil || !m.onDisk || !m.disk.exists() {
		return true, nil
	}
	if m.err != nil {
		return true, m.err
	}
	return true, m.latch(m.rewrite())
}

func sanitizeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			return ' '
		}
		return r
	}, s)
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return strings.TrimSpace(s)
}

// EnsureOnDisk writes the session now, even without an assistant message
// (for front ends that must list a session as soon as it exists).
func (m *Manager) EnsureOnDisk() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.disk == nil || m.onDisk {
		return m.err
	}
	if m.err != nil {
		return m.err
	}
	return m.latch(m.rewrite())
}

// Flush forces everything written so far to stable storage.
func (m *Manager) Flush() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.disk == nil {
		return nil
	}
	if m.err != nil {
		return m.err
	}
	return m.latch(m.disk.flush())
}

// Close flushes and closes the file. The Manager must not be used after.
func (m *Manager) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.disk == nil {
		return nil
	}
	err := m.disk.flush()
	if cerr := m.disk.closeFile(); err == nil {
		err = cerr
	}
	if m.err != nil {
		return m.err
	}
	return err
}

// artifactsDir returns the directory for this session's artifacts (the
// session file without ".jsonl"), or "" for an in-memory session.
func (m *Manager) artifactsDir() string {
	if m.disk == nil {
		return ""
	}
	return strings.TrimSuffix(m.disk.path, ".jsonl")
}

// Artifacts returns the store for this session's spilled tool output
// (<n>.<tool>.log in ArtifactsDir, numbered on from the largest present),
// or nil for an in-memory session.
func (m *Manager) Artifacts() *artifact.Store {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.disk == nil {
		return nil
	}
	if m.artifacts == nil {
		m.artifacts = artifact.NewStore(m.artifactsDir())
	}
	return m.artifacts
}

// ---- ids and names ----

// isoTime formats t as JavaScript's toISOString does.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// fileName returns <timestamp>_<id>.jsonl, the timestamp being the
// header's with ':' and '.' replaced by '-'.
func fileName(h Header) string {
	ts := strings.NewReplacer(":", "-", ".", "-").Replace(h.Timestamp)
	return ts + "_" + h.ID + ".jsonl"
}

// newSessionID returns a UUIDv7 (time-ordered), as omp's session ids are.
func newSessionID(r io.Reader, now time.Time) string {
	var b [16]byte
	io.ReadFull(r, b[:])
	ms := uint64(now.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
