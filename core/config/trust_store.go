package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// The answers to the trust question live in the agent directory's
// trusted-projects.json, one record per project keyed by its real path:
//
//	{"version": 1, "projects": {"/home/me/src/app": {"trusted": true,
//	  "fingerprint": "…", "decided": "2026-…", "items": ["MCP server …"]}}}
//
// items is for the reader (what was answered); only the fingerprint is
// compared.

// trustFileVersion is the format written.
const trustFileVersion = 1

// trustRecord is one remembered answer.
type trustRecord struct {
	Trusted     bool      `json:"trusted"`
	Fingerprint string    `json:"fingerprint"`
	Decided     time.Time `json:"decided"`
	Items       []string  `json:"items,omitempty"`
}

// trustFile is the whole file.
type trustFile struct {
	Version  int                     `json:"version"`
	Projects map[string]*trustRecord `json:"projects"`
}

// readTrustFile reads the answers; a missing file is empty.
func readTrustFile(path string) (*trustFile, error) {
	f := &trustFile{Version: trustFileVersion, Projects: map[string]*trustRecord{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the remembered project trust %s: %w", path, err)
	}
	if err := json.Unmarshal(data, f); err != nil {
		return nil, fmt.Errorf("the remembered project trust %s is not valid JSON (%v): fix or delete it; until then projects are asked again and answers are not saved", path, err)
	}
	if f.Projects == nil {
		f.Projects = map[string]*trustRecord{}
	}
	return f, nil
}

// recalledTrust returns the answer remembered for a project (nil when
// none).
func recalledTrust(file, project string) (*trustRecord, error) {
	f, err := readTrustFile(file)
	if err != nil {
		return nil, err
	}
	return f.Projects[project], nil
}

// rememberTrust stores the answer for a project. The file is read and
// replaced (atomically) under its lock, so answers other gopi runs save
// at the same time are kept; a file that cannot be read is never
// overwritten.
func rememberTrust(file, project string, rec trustRecord) error {
	unlock, err := atomicfile.Lock(file)
	if err != nil {
		return fmt.Errorf("remember the project trust in %s: %w", file, err)
	}
	defer unlock()
	f, err := readTrustFile(file)
	if err != nil {
		return err
	}
	rec.Decided = time.Now().UTC().Truncate(time.Second)
	f.Version = trustFileVersion
	f.Projects[project] = &rec
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the project trust: %w", err)
	}
	if err := atomicfile.WriteFile(file, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("remember the project trust in %s: %w", file, err)
	}
	return nil
}
