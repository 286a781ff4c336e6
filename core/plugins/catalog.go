package plugins

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"reflect"
	"strings"
)

// CatalogPath is where a marketplace keeps its catalog, relative to its
// root.
const CatalogPath = ".claude-plugin/marketplace.json"

// Person is an owner or author: a name and an optional e-mail address.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
}

// CatalogMetadata is the catalog's optional metadata block.
type CatalogMetadata struct {
	Description string `json:"description,omitempty"`
	Version     string `json:"version,omitempty"`
	// PluginRoot is put in front of every relative plugin source.
	PluginRoot string `json:"pluginRoot,omitempty"`
}

// Catalog is a marketplace's marketplace.json.
type Catalog struct {
	Schema      string           `json:"$schema,omitempty"`
	Name        string           `json:"name"`
	Owner       Person           `json:"owner"`
	Description string           `json:"description,omitempty"`
	Metadata    *CatalogMetadata `json:"metadata,omitempty"`
	Plugins     []Entry          `json:"plugins"`
}

// Entry is one plugin a catalog lists.
type Entry struct {
	Name        string   `json:"name"`
	Source      Source   `json:"source"`
	Description string   `json:"description,omitempty"`
	Version     string   `json:"version,omitempty"`
	Author      *Person  `json:"author,omitempty"`
	Homepage    string   `json:"homepage,omitempty"`
	Repository  string   `json:"repository,omitempty"`
	License     string   `json:"license,omitempty"`
	Keywords    []string `json:"keywords,omitempty"`
	Category    string   `json:"category,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Strict      *bool    `json:"strict,omitempty"`
	// The component fields a catalog may declare for a plugin, kept as
	// written (a path or a list of paths, or an inline object).
	Commands   json.RawMessage `json:"commands,omitempty"`
	Agents     json.RawMessage `json:"agents,omitempty"`
	Hooks      json.RawMessage `json:"hooks,omitempty"`
	MCPServers json.RawMessage `json:"mcpServers,omitempty"`
	LSPServers json.RawMessage `json:"lspServers,omitempty"`
}

// Plugin source kinds.
const (
	SourcePath      = "path"       // a directory inside the marketplace ("./plugins/x")
	SourceURL       = "url"        // a Git repository URL
	SourceGitHub    = "github"     // a GitHub owner/repo
	SourceGitSubdir = "git-subdir" // a directory inside a Git repository
	SourceNPM       = "npm"        // an npm package, fetched with the system npm
)

// Source is where a plugin's files come from: a relative path (written
// as a string) or an object whose "source" field names the kind.
type Source struct {
	Kind    string `json:"source"`            // one of the Source* kinds
	Path    string `json:"path,omitempty"`    // path: the relative path; git-subdir: the directory in the repository
	URL     string `json:"url,omitempty"`     // url, git-subdir: the repository (git-subdir also takes owner/repo)
	Repo    string `json:"repo,omitempty"`    // github: owner/repo
	Ref     string `json:"ref,omitempty"`     // a branch or tag to check out
	SHA     string `json:"sha,omitempty"`     // an exact commit to check out
	Package string `json:"package,omitempty"` // npm: the package name
	Version string `json:"version,omitempty"` // npm: the version
}

// UnmarshalJSON reads the string form as a path source and the object
// form as written.
func (s *Source) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var p string
		if err := json.Unmarshal(data, &p); err != nil {
			return err
		}
		*s = Source{Kind: SourcePath, Path: p}
		return nil
	}
	type plain Source
	var v plain
	if err := json.Unmarshal(data, &v); err != nil {
		return errors.New("source must be a relative path or an object with a \"source\" field")
	}
	*s = Source(v)
	return nil
}

// MarshalJSON writes a path source back as its string.
func (s Source) MarshalJSON() ([]byte, error) {
	if s.Kind == SourcePath {
		return json.Marshal(s.Path)
	}
	type plain Source
	return json.Marshal(plain(s))
}

// String describes the source in one line.
func (s Source) String() string {
	switch s.Kind {
	case SourcePath:
		return s.Path
	case SourceGitHub:
		return "github:" + s.Repo
	case SourceNPM:
		return "npm:" + s.Package
	case SourceGitSubdir:
		return s.URL + "//" + s.Path
	}
	return s.URL
}

// ParseCatalog reads and checks a catalog; file names it in errors. A
// catalog with any invalid part is refused whole, with the first problem
// found.
func ParseCatalog(data []byte, file string) (*Catalog, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("marketplace catalog %s: %s", file, fmt.Sprintf(format, args...))
	}
	var c Catalog
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&c); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, bad("not valid JSON at byte %d: %v", se.Offset, err)
		case errors.As(err, &te):
			return nil, bad("field %q has the wrong type (%s where %s is expected)", te.Field, article(te.Value), jsonKind(te.Type))
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return nil, bad("not valid JSON: the text ends before the object does")
		}
		return nil, bad("%v", err)
	}
	if dec.More() {
		return nil, bad("text after the JSON object")
	}
	switch {
	case c.Name == "":
		return nil, bad("\"name\" is missing")
	case !ValidName(c.Name):
		return nil, bad("%v", nameError("marketplace", c.Name))
	case strings.TrimSpace(c.Owner.Name) == "":
		return nil, bad("\"owner.name\" is missing")
	case c.Plugins == nil:
		return nil, bad("\"plugins\" is missing (an empty list is allowed)")
	}
	seen := map[string]bool{}
	for i, e := range c.Plugins {
		if err := checkEntry(e, c.Name); err != nil {
			return nil, bad("plugins[%d]: %v", i, err)
		}
		if seen[e.Name] {
			return nil, bad("plugins[%d]: plugin %q is listed twice", i, e.Name)
		}
		seen[e.Name] = true
	}
	if c.Metadata != nil && c.Metadata.PluginRoot != "" {
		if _, err := cleanRelative(c.Metadata.PluginRoot); err != nil {
			return nil, bad("metadata.pluginRoot: %v", err)
		}
	}
	return &c, nil
}

// checkEntry checks one plugin entry.
func checkEntry(e Entry, marketplace string) error {
	if e.Name == "" {
		return errors.New("\"name\" is missing")
	}
	if !ValidName(e.Name) {
		return nameError("plugin", e.Name)
	}
	if len(e.Name)+1+len(marketplace) > MaxIDLen {
		return fmt.Errorf("plugin id %s@%s is longer than %d characters", e.Name, marketplace, MaxIDLen)
	}
	s := e.Source
	switch s.Kind {
	case "":
		return fmt.Errorf("plugin %q: \"source\" is missing", e.Name)
	case SourcePath:
		if _, err := cleanRelative(s.Path); err != nil {
			return fmt.Errorf("plugin %q: source: %v", e.Name, err)
		}
	case SourceURL:
		if s.URL == "" {
			return fmt.Errorf("plugin %q: a \"url\" source needs \"url\"", e.Name)
		}
	case SourceGitHub:
		if !ownerRepo(s.Repo) {
			return fmt.Errorf("plugin %q: a \"github\" source needs \"repo\" as owner/repo", e.Name)
		}
	case SourceGitSubdir:
		if s.URL == "" {
			return fmt.Errorf("plugin %q: a \"git-subdir\" source needs \"url\"", e.Name)
		}
		if _, err := cleanRelative(s.Path); err != nil || s.Path == "" {
			return fmt.Errorf("plugin %q: a \"git-subdir\" source needs \"path\" inside the repository", e.Name)
		}
	case SourceNPM:
		if s.Package == "" {
			return fmt.Errorf("plugin %q: an \"npm\" source needs \"package\"", e.Name)
		}
	default:
		return fmt.Errorf("plugin %q: unknown source kind %q (use a relative path, url, github, git-subdir or npm)", e.Name, s.Kind)
	}
	for _, r := range []string{s.Ref, s.SHA} {
		if strings.HasPrefix(r, "-") {
			return fmt.Errorf("plugin %q: ref or sha %q may not start with '-'", e.Name, r)
		}
	}
	return nil
}

// ownerRepo reports whether s is GitHub's owner/repo form.
func ownerRepo(s string) bool {
	owner, repo, ok := strings.Cut(s, "/")
	return ok && owner != "" && repo != "" && !strings.ContainsAny(repo, "/ ") && !strings.ContainsAny(owner, " ") &&
		!strings.HasPrefix(owner, "-") && owner != "." && owner != ".." && repo != "." && repo != ".."
}

// cleanRelative checks a path that must stay inside its directory: not
// absolute, no ".." step leading out, no backslashes or NULs. It returns
// the cleaned slash path ("." for the directory itself).
func cleanRelative(p string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("the path is empty")
	case strings.ContainsAny(p, "\\\x00"):
		return "", fmt.Errorf("path %q holds a backslash or NUL", p)
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~"):
		return "", fmt.Errorf("path %q is absolute; use a path relative to the marketplace (./dir)", p)
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q leads outside its directory", p)
	}
	return c, nil
}

// jsonKind names what JSON value a Go type is read from, for messages.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another value"
}

// article puts "a" or "an" before the JSON kind encoding/json reports
// (object, array, string, number, bool).
func article(v string) string {
	switch v {
	case "object":
		return "an object"
	case "array":
		return "a list"
	case "bool":
		return "true or false"
	}
	return "a " + v
}
