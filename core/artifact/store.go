package artifact

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// Scheme prefixes artifact references: artifact://<id>.
const Scheme = "artifact://"

// ErrNoDir is returned when a session has no artifacts directory.
var ErrNoDir = errors.New("No artifacts directory found")

// Store keeps the full text of outputs that were truncated for the
// model, one file per output in a session's artifacts directory, named
// `<id>.<toolType>.log` with ids 0, 1, 2 … allocated in order. The first
// allocation scans the directory and continues after the largest id found,
// so a resumed session never overwrites an earlier artifact. Safe for
// concurrent use.
type Store struct {
	dir string

	mu        sync.Mutex
	next      int
	scanned   bool
	agentNext map[string]int // next subagent number per id prefix (agent.go)
}

// NewStore returns a store over dir (created on first write).
func NewStore(dir string) *Store { return &Store{dir: dir} }

// Dir returns the artifacts directory.
func (s *Store) Dir() string { return s.dir }

var artifactName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)\.([^/]*)\.log$`) })

// toolTypeSafe keeps file names tame whatever the caller passes.
var toolTypeUnsafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })

// Allocate reserves the next id for toolType and returns the id and the
// path of its (not yet created) file.
func (s *Store) Allocate(toolType string) (id, path string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.scanned {
		ids, err := s.ids()
		if err != nil && !errors.Is(err, ErrNoDir) {
			return "", "", err
		}
		if len(ids) > 0 {
			s.next = ids[len(ids)-1] + 1
		}
		s.scanned = true
	}
	n := s.next
	s.next++
	tt := toolTypeUnsafe().ReplaceAllString(toolType, "_")
	if tt == "" {
		tt = "tool"
	}
	id = strconv.Itoa(n)
	return id, filepath.Join(s.dir, id+"."+tt+".log"), nil
}

// Save stores content as a new artifact for toolType and returns its id.
// The file is written atomically.
func (s *Store) Save(toolType, content string) (string, error) {
	id, path, err := s.Allocate(toolType)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return "", fmt.Errorf("create artifacts directory: %w", err)
	}
	if err := atomicfile.WriteFile(path, []byte(content), 0o644); err != nil {
		return "", fmt.Errorf("save artifact %s: %w", id, err)
	}
	return id, nil
}

// Path resolves an artifact id (or an artifact://<id> reference) to its
// file. Errors say which ids exist.
func (s *Store) Path(ref string) (string, error) {
	id := strings.TrimPrefix(ref, Scheme)
	if _, err := strconv.Atoi(id); err != nil || strings.HasPrefix(id, "-") {
		return "", fmt.Errorf("Invalid artifact ID %q: artifact IDs are numbers, as in artifact://0", id)
	}
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", ErrNoDir
	}
	if err != nil {
		return "", fmt.Errorf("list artifacts: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), id+".") && artifactName().MatchString(e.Name()) {
			return filepath.Join(s.dir, e.Name()), nil
		}
	}
	ids, _ := s.ids()
	if len(ids) == 0 {
		return "", fmt.Errorf("Artifact %s not found; this session has no artifacts", id)
	}
	list := make([]string, len(ids))
	for i, n := range ids {
		list[i] = strconv.Itoa(n)
	}
	return "", fmt.Errorf("Artifact %s not found. Available artifacts: %s", id, strings.Join(list, ", "))
}

// Read returns the text of an artifact by id or artifact:// reference.
func (s *Store) Read(ref string) (string, error) {
	path, err := s.Path(ref)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read artifact: %w", err)
	}
	return string(b), nil
}

// ids lists the ids present, ascending.
func (s *Store) ids() ([]int, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoDir
	}
	if err != nil {
		return nil, fmt.Errorf("list artifacts: %w", err)
	}
	var ids []int
	for _, e := range entries {
		if m := artifactName().FindStringSubmatch(e.Name()); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				ids = append(ids, n)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// URL returns the reference for an id: artifact://<id>.
func URL(id string) string { return Scheme + id }
