package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// SSHHostEntry is what `gopi ssh add` and /ssh add write for a host, in
// ssh.json's field names.
type SSHHostEntry struct {
	Host        string `json:"host"`
	Username    string `json:"username,omitempty"`
	Port        int    `json:"port,omitempty"`
	KeyPath     string `json:"keyPath,omitempty"`
	Description string `json:"description,omitempty"`
	Compat      bool   `json:"compat,omitempty"`
}

// sshHostName is what a host name added by gopi may hold.
var sshHostName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// ValidateSSHHostName says what is wrong with a host name to be added, or
// nil: 1 to 100 letters, digits, "-", "_" and ".".
func ValidateSSHHostName(name string) error {
	switch {
	case name == "":
		return errors.New("Host name cannot be empty")
	case len(name) > 100:
		return errors.New("Host name is too long (max 100 characters)")
	case !sshHostName.MatchString(name):
		return errors.New("Host name can only contain letters, numbers, dash, underscore, and dot")
	}
	return nil
}

// LoadSSHFile reads the ssh.json at path; a missing file is an empty one.
func LoadSSHFile(path string) (*SSHFile, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &SSHFile{Other: map[string]json.RawMessage{}}, nil
	}
	if err != nil {
		return nil, err
	}
	f, err := ReadSSHFile(data)
	if err != nil {
		return nil, fmt.Errorf("Failed to parse SSH config file %s: %v", path, err)
	}
	return f, nil
}

// AddSSHHost adds the host name to the ssh.json at path (created, with
// its directory, when missing). A name already there is refused: remove
// it first. Everything else in the file is kept.
func AddSSHHost(path, name string, entry SSHHostEntry) error {
	if err := ValidateSSHHostName(name); err != nil {
		return err
	}
	if entry.Host == "" {
		return errors.New("Host address cannot be empty")
	}
	if err := ValidateSSHHostEntry(entry); err != nil {
		return err
	}
	unlock, err := lockSSHFile(path)
	if err != nil {
		return err
	}
	defer unlock()
	f, err := LoadSSHFile(path)
	if err != nil {
		return err
	}
	if _, ok := f.Host(name); ok {
		return fmt.Errorf("Host %q already exists in %s", name, path)
	}
	value, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	f.Hosts = append(f.Hosts, SSHEntry{Name: name, Value: value})
	return writeSSHFile(path, f)
}

// RemoveSSHHost removes the host name from the ssh.json at path; a name
// not there is an error.
func RemoveSSHHost(path, name string) error {
	unlock, err := lockSSHFile(path)
	if err != nil {
		return err
	}
	defer unlock()
	f, err := LoadSSHFile(path)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(f.Hosts, func(e SSHEntry) bool { return e.Name == name })
	if i < 0 {
		return fmt.Errorf("Host %q not found in %s", name, path)
	}
	f.Hosts = slices.Delete(f.Hosts, i, i+1)
	return writeSSHFile(path, f)
}

// lockSSHFile takes the lock that serialises edits of the ssh.json at
// path (its directory is created first, private to the user), so two
// concurrent adds both land.
func lockSSHFile(path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	return atomicfile.Lock(path)
}

// writeSSHFile writes f to path through the one write path (a new file
// is private to the user, as it may name keys).
func writeSSHFile(path string, f *SSHFile) error {
	data, err := f.Encode()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o600)
}
