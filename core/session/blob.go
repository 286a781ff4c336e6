package session

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// BlobPrefix starts a blob reference: blob:sha256:<64 hex digits>.
const BlobPrefix = "blob:sha256:"

// BlobStore is the content-addressed store images are moved to when a
// session is persisted: one file per blob, named by the SHA-256 (lowercase
// hex) of its bytes, with no extension — the same layout as omp's
// ~/.omp/agent/blobs, so either program resolves the other's references.
// Writing is idempotent (same bytes, same name) and needs no locking.
type BlobStore struct {
	Dir string // the blobs directory, e.g. <agent dir>/blobs
	// Fallback are directories only read from, after Dir: omp's
	// ~/.omp/agent/blobs holds the images of the omp sessions gopi resumes.
	Fallback []string
}

// Put stores data and returns its hash. An existing blob is not rewritten.
func (s *BlobStore) Put(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	path := filepath.Join(s.Dir, hash)
	if fi, err := os.Stat(path); err == nil && fi.Size() == int64(len(data)) {
		return hash, nil
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", fmt.Errorf("create blob directory: %w", err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("store blob: %w", err)
	}
	return hash, nil
}

// Get returns the bytes of a blob from Dir, else from the first Fallback
// directory that has it; the error wraps fs.ErrNotExist when none has it.
func (s *BlobStore) Get(hash string) ([]byte, error) {
	if !validHash(hash) {
		return nil, fmt.Errorf("blob %q: not a SHA-256 hash: %w", hash, fs.ErrNotExist)
	}
	var failed error // the first error, unless a later one is more than "not there"
	for _, dir := range s.dirs() {
		b, err := os.ReadFile(filepath.Join(dir, hash))
		switch {
		case err == nil:
			return b, nil
		case failed == nil, errors.Is(failed, fs.ErrNotExist) && !errors.Is(err, fs.ErrNotExist):
			failed = err
		}
	}
	return nil, fmt.Errorf("read blob: %w", failed)
}

// dirs returns Dir, then the fallback directories.
func (s *BlobStore) dirs() []string {
	return append([]string{s.Dir}, s.Fallback...)
}

// BlobRef returns the reference for a hash.
func BlobRef(hash string) string { return BlobPrefix + hash }

// ParseBlobRef returns the hash of a blob reference.
func ParseBlobRef(s string) (string, bool) {
	h, ok := strings.CutPrefix(s, BlobPrefix)
	return h, ok
}

// validHash reports whether h is 64 lowercase hex digits (a file name that
// cannot leave the blob directory).
func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// decodeBase64 decodes image data as leniently as Node's Buffer.from(s,
// "base64") does for well-formed input: standard or URL alphabet, padded
// or not.
func decodeBase64(s string) ([]byte, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, true
		}
	}
	return nil, false
}

// blobCache resolves blob references while loading one file.
type blobCache struct {
	store *BlobStore
	seen  map[string]string // hash → base64 (or "" when missing)
}

// resolve returns the base64 data for a reference, or an error when the
// blob is missing.
func (c *blobCache) resolve(ref string) (string, error) {
	hash, _ := ParseBlobRef(ref)
	if v, ok := c.seen[hash]; ok {
		if v == "" {
			return "", fmt.Errorf("blob %s not found", hash)
		}
		return v, nil
	}
	if c.seen == nil {
		c.seen = map[string]string{}
	}
	if c.store == nil {
		c.seen[hash] = ""
		return "", errors.New("blob " + hash + " not found: no blob directory configured")
	}
	b, err := c.store.Get(hash)
	if errors.Is(err, fs.ErrNotExist) {
		c.seen[hash] = ""
		return "", fmt.Errorf("blob %s not found in %s", hash, strings.Join(c.store.dirs(), " or "))
	}
	if err != nil {
		c.seen[hash] = ""
		return "", err
	}
	v := base64.StdEncoding.EncodeToString(b)
	c.seen[hash] = v
	return v, nil
}
