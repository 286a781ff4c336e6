package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// SSHFileName is the name of the file that lists the hosts the ssh tool
// may reach, in the project's and the user's config directories (omp's
// ssh.json).
const SSHFileName = "ssh.json"

// SSHScope names the ssh.json file `gopi ssh` and /ssh change.
type SSHScope string

// SSH scopes.
const (
	SSHScopeProject SSHScope = "project" // .gopi/ssh.json in the working directory
	SSHScopeUser    SSHScope = "user"    // ssh.json in the agent directory
)

// SSHHost is one host entry of an ssh.json file, as the ssh tool uses it.
type SSHHost struct {
	Name        string // the entry's key: what the model passes as host
	Host        string // address or DNS name
	Username    string // login name; "" leaves it to ssh
	Port        int    // 0 leaves it to ssh (22)
	KeyPath     string // identity file ("~" expanded); "" leaves it to ssh
	Description string // free text for people
	// Compat forces the POSIX-shell wrapping on a Windows host on (true) or
	// off (false); nil lets the host probe decide.
	Compat *bool
	File   string // the ssh.json it came from
	Level  Level  // user or project
}

// SSHConfig is what the ssh tool needs from the configuration.
type SSHConfig struct {
	Hosts    []SSHHost // first definition of each name wins, in file order (see Config.SSH)
	Warnings []string  // entries or files that were skipped, and why
}

// SSHConfigPath is the ssh.json file of scope: .gopi/ssh.json in the
// project or ssh.json in the agent directory.
func (d Dirs) SSHConfigPath(scope SSHScope) string {
	if scope == SSHScopeUser {
		return filepath.Join(d.AgentDir, SSHFileName)
	}
	return filepath.Join(d.ProjectDir, SSHFileName)
}

// SSHHostInfoDirs are the directories where what the ssh tool learnt of
// each host (system, shell) is cached between sessions: gopi's own
// (ConfigRoot/remote-host, written) then omp's (~/.omp/remote-host, read
// only; the same format).
func (d Dirs) SSHHostInfoDirs() []string {
	return []string{filepath.Join(d.ConfigRoot, "remote-host"), filepath.Join(d.OMPRoot, "remote-host")}
}

// sshFiles are the files hosts are read from, highest priority first:
// gopi's project and user files, omp's project and user files, then the
// legacy ssh.json and .ssh.json at the project root.
func (d Dirs) sshFiles() []ConfigDir {
	out := []ConfigDir{
		{Path: d.SSHConfigPath(SSHScopeProject), Source: SourceGopi, Level: LevelProject},
		{Path: d.SSHConfigPath(SSHScopeUser), Source: SourceGopi, Level: LevelUser},
	}
	for _, s := range d.Sources() {
		if s.ID != SourceOMP {
			continue
		}
		if s.ProjectName != "" {
			out = append(out, ConfigDir{Path: filepath.Join(d.Cwd, s.ProjectName, SSHFileName), Source: SourceOMP, Level: LevelProject})
		}
		if s.UserDir != "" {
			out = append(out, ConfigDir{Path: filepath.Join(s.UserDir, SSHFileName), Source: SourceOMP, Level: LevelUser})
		}
	}
	out = append(out,
		ConfigDir{Path: filepath.Join(d.Cwd, SSHFileName), Source: SourceGopi, Level: LevelProject},
		ConfigDir{Path: filepath.Join(d.Cwd, "."+SSHFileName), Source: SourceGopi, Level: LevelProject})
	seen := map[string]bool{}
	uniq := out[:0]
	for _, f := range out {
		if p := filepath.Clean(f.Path); !seen[p] {
			seen[p] = true
			uniq = append(uniq, f)
		}
	}
	return uniq
}

// SSH returns the hosts of every ssh.json file (see sshFiles for the
// order); the first file defining a name wins. ${VAR} and ${VAR:-default}
// in values are expanded from the environment, a leading "~" in key paths
// from the home directory. Files that are missing are skipped silently,
// those that cannot be read or parsed and entries that make no sense with
// a warning. ~/.ssh/config is not read: only the hosts named here exist
// for the tool.
func (c *Config) SSH() *SSHConfig {
	out := &SSHConfig{}
	seen := map[string]bool{}
	for _, f := range c.Dirs.sshFiles() {
		data, err := os.ReadFile(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("Cannot read %s: %v", f.Path, err))
			continue
		}
		hosts, warnings := ParseSSHHosts(data, f.Path, func(s string) string { return expandVars(s, c.Env) })
		out.Warnings = append(out.Warnings, warnings...)
		for _, h := range hosts {
			if seen[h.Name] {
				continue
			}
			seen[h.Name] = true
			h.Level = f.Level
			h.KeyPath = expandHome(h.KeyPath, c.Home)
			out.Hosts = append(out.Hosts, h)
		}
	}
	return out
}

// ParseSSHHosts reads the hosts of one ssh.json file ({"hosts": {name:
// {host, username, port, key|keyPath, description, compat}}}) in the order
// they are written. expand (may be nil) rewrites every string value
// (environment variables). Entries without a host, or that are not
// objects, are skipped with a warning, as is a whole file that is not
// such JSON.
func ParseSSHHosts(data []byte, path string, expand func(string) string) ([]SSHHost, []string) {
	if expand == nil {
		expand = func(s string) string { return s }
	}
	doc, err := ReadSSHFile(data)
	if err != nil {
		return nil, []string{fmt.Sprintf("Cannot parse %s: %v; fix the JSON or remove the file", path, err)}
	}
	if doc.Hosts == nil {
		return nil, []string{fmt.Sprintf("%s has no \"hosts\" object; write {\"hosts\": {\"name\": {\"host\": \"address\"}}}", path)}
	}
	return doc.Parse(path, expand)
}

// Parse reads the file's host entries as ParseSSHHosts does; path names
// the file in warnings and in each host's File.
func (f *SSHFile) Parse(path string, expand func(string) string) ([]SSHHost, []string) {
	if expand == nil {
		expand = func(s string) string { return s }
	}
	var hosts []SSHHost
	var warnings []string
	for _, e := range f.Hosts {
		h, warn := parseSSHEntry(e.Name, e.Value, expand)
		if warn != "" {
			warnings = append(warnings, fmt.Sprintf("%s: %s", path, warn))
		}
		if h != nil {
			h.File = path
			hosts = append(hosts, *h)
		}
	}
	return hosts, warnings
}

// parseSSHEntry reads one host entry; nil with a warning when it cannot
// be used, a host with a warning when only a field was dropped.
func parseSSHEntry(name string, raw json.RawMessage, expand func(string) string) (*SSHHost, string) {
	if strings.TrimSpace(name) == "" {
		return nil, "a host has an empty name; give it one"
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Sprintf("host %q is not an object; write {\"host\": \"address\"}", name)
	}
	str := func(key string) string {
		s, _ := fields[key].(string)
		return expand(s)
	}
	h := &SSHHost{Name: name, Host: str("host"), Username: str("username"), Description: str("description")}
	if h.Host == "" {
		return nil, fmt.Sprintf("host %q has no \"host\" address; add one", name)
	}
	h.KeyPath = str("keyPath")
	if h.KeyPath == "" {
		h.KeyPath = str("key")
	}
	if p := sshFieldsProblem(h.Host, h.Username, h.KeyPath); p != "" {
		return nil, fmt.Sprintf("host %q is skipped: its %s; fix or remove the entry", name, p)
	}
	var warn string
	switch p := fields["port"].(type) {
	case nil:
	case float64:
		h.Port = int(p)
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(expand(p))); err == nil {
			h.Port = n
		} else {
			warn = fmt.Sprintf("host %q has an invalid port %q; ssh's default is used", name, p)
		}
	default:
		warn = fmt.Sprintf("host %q has an invalid port; ssh's default is used", name)
	}
	if h.Port < 0 || h.Port > 65535 {
		warn = fmt.Sprintf("host %q has port %d, outside 1-65535; ssh's default is used", name, h.Port)
		h.Port = 0
	}
	switch v := fields["compat"].(type) {
	case nil:
	case bool:
		h.Compat = &v
	case string:
		switch strings.ToLower(strings.TrimSpace(expand(v))) {
		case "true", "1", "yes":
			t := true
			h.Compat = &t
		case "false", "0", "no":
			f := false
			h.Compat = &f
		default:
			warn = fmt.Sprintf("host %q has an invalid compat flag %q; use true or false", name, v)
		}
	default:
		warn = fmt.Sprintf("host %q has an invalid compat flag; use true or false", name)
	}
	return h, warn
}

// SSHFile is an ssh.json file as written: its hosts in file order and
// whatever else it holds, kept when the file is rewritten.
type SSHFile struct {
	Hosts []SSHEntry                 // nil when the file has no "hosts" object
	Other map[string]json.RawMessage // the other top-level keys
}

// SSHEntry is one named host entry, its fields as written.
type SSHEntry struct {
	Name  string          // the key under "hosts"
	Value json.RawMessage // the entry's JSON as written
}

// ReadSSHFile parses an ssh.json file, keeping the order of its hosts.
// Empty data is an empty file.
func ReadSSHFile(data []byte) (*SSHFile, error) {
	f := &SSHFile{Other: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return f, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, err
	}
	if top == nil {
		return nil, errors.New("the file is null, not an object")
	}
	for k, v := range top {
		if k != "hosts" {
			f.Other[k] = v
		}
	}
	raw, ok := top["hosts"]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return f, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return f, nil // not an object: no hosts
	}
	f.Hosts = []SSHEntry{}
	index := map[string]int{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if i, dup := index[name]; dup { // the last one wins, as in JSON.parse
			f.Hosts[i].Value = v
			continue
		}
		index[name] = len(f.Hosts)
		f.Hosts = append(f.Hosts, SSHEntry{Name: name, Value: v})
	}
	return f, nil
}

// Host returns the entry named name, or false.
func (f *SSHFile) Host(name string) (SSHEntry, bool) {
	for _, e := range f.Hosts {
		if e.Name == name {
			return e, true
		}
	}
	return SSHEntry{}, false
}

// Encode writes the file as indented JSON, its hosts in order.
func (f *SSHFile) Encode() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{")
	keys := make([]string, 0, len(f.Other))
	for k := range f.Other {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	first := true
	sep := func() {
		if !first {
			b.WriteString(",")
		}
		first = false
		b.WriteString("\n  ")
	}
	for _, k := range keys {
		sep()
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteString(": ")
		if err := json.Indent(&b, f.Other[k], "  ", "  "); err != nil {
			return nil, err
		}
	}
	sep()
	b.WriteString(`"hosts": {`)
	for i, e := range f.Hosts {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		name, _ := json.Marshal(e.Name)
		b.Write(name)
		b.WriteString(": ")
		if err := json.Indent(&b, e.Value, "    ", "  "); err != nil {
			return nil, err
		}
	}
	if len(f.Hosts) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("}\n}\n")
	return b.Bytes(), nil
}
