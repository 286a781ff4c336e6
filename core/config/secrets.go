package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// SecretsFile is the file of user-defined secrets, in the agent directory
// and in a project's config directory.
const SecretsFile = "secrets.yml"

// Secret kinds and modes.
const (
	SecretPlain     = "plain"     // Content is the literal secret
	SecretRegex     = "regex"     // Content is a regular expression (or a /pattern/flags literal)
	SecretObfuscate = "obfuscate" // replaced by a reversible placeholder (the default)
	SecretReplace   = "replace"   // replaced one-way by Replacement or a same-length mask
)

// secretMinLen is the shortest environment value taken as a secret.
const secretMinLen = 8

// secretNameParts are the name fragments that mark an environment
// variable as holding a secret.
var secretNameParts = []string{"KEY", "SECRET", "TOKEN", "PASSWORD", "PASS", "AUTH", "CREDENTIAL", "PRIVATE", "OAUTH"}

// SecretEntry is one secret to keep away from model providers.
type SecretEntry struct {
	Type        string `yaml:"type"`        // SecretPlain or SecretRegex
	Content     string `yaml:"content"`     // the value or the pattern
	Mode        string `yaml:"mode"`        // SecretObfuscate (default) or SecretReplace
	Replacement string `yaml:"replacement"` // replace mode: the text put instead ("" = a mask of the same length)
	Flags       string `yaml:"flags"`       // regex: flags such as "i" ("g" is implied)
	Source      string `yaml:"-"`           // where it came from: "env:NAME" or a file path
}

// SecretsEnabled reports the secrets.enabled setting.
func (c *Config) SecretsEnabled() bool { return c.Settings.Bool("secrets.enabled") }

// Secrets collects the secrets to obfuscate: environment variables whose
// names look like they hold one (KEY, TOKEN, PASSWORD, …) with values of
// at least 8 characters, sorted by name, then the entries of the
// secrets.yml files (omp's and gopi's user files, then their project
// files; a later file's entry replaces an earlier one with the same
// content). It returns nothing when secrets.enabled is off. Problems with
// a file are returned beside the entries that could be read.
func (c *Config) Secrets() ([]SecretEntry, []error) {
	if !c.SecretsEnabled() {
		return nil, nil
	}
	var out []SecretEntry
	for _, kv := range c.Env.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if len(value) >= secretMinLen && secretName(name) {
			out = append(out, SecretEntry{Type: SecretPlain, Content: value, Mode: SecretObfuscate, Source: "env:" + name})
		}
	}
	var files []SecretEntry
	var errs []error
	for _, p := range c.secretFiles() {
		entries, err := readSecretsFile(p)
		if err != nil {
			errs = append(errs, err)
		}
		for _, e := range entries {
			if i := slices.IndexFunc(files, func(x SecretEntry) bool { return x.Content == e.Content }); i >= 0 {
				files[i] = e
				continue
			}
			files = append(files, e)
		}
	}
	return append(out, files...), errs
}

// secretName reports whether an environment variable's name marks a
// secret.
func secretName(name string) bool {
	upper := strings.ToUpper(name)
	for _, p := range secretNameParts {
		if strings.Contains(upper, p) {
			return true
		}
	}
	return false
}

// secretFiles lists the secrets.yml files in override order: user files
// (omp's, then gopi's) before project files (omp's, then gopi's).
func (c *Config) secretFiles() []string {
	var user, project []string
	sources := c.Dirs.Sources()
	for i := len(sources) - 1; i >= 0; i-- {
		s := sources[i]
		if s.ID != SourceGopi && s.ID != SourceOMP {
			continue
		}
		if s.UserDir != "" {
			user = append(user, filepath.Join(s.UserDir, SecretsFile))
		}
		if s.ProjectName != "" {
			project = append(project, filepath.Join(c.Cwd, s.ProjectName, SecretsFile))
		}
	}
	return append(user, project...)
}

// readSecretsFile reads one secrets.yml: a list of entries. Entries
// without content, or with an unknown type or mode, are reported and
// skipped. A missing file is no error.
func readSecretsFile(path string) ([]SecretEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("secrets file %s: %w", path, err)
	}
	var raw []SecretEntry
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("secrets file %s: %s (it must be a YAML list of {type, content, mode?, replacement?, flags?})", path, YAMLErrorText(err))
	}
	var out []SecretEntry
	var problems []string
	for i, e := range raw {
		e.Source = path
		if e.Mode == "" {
			e.Mode = SecretObfuscate
		}
		switch {
		case e.Content == "":
			problems = append(problems, fmt.Sprintf("entry %d has no content", i+1))
		case e.Type != SecretPlain && e.Type != SecretRegex:
			problems = append(problems, fmt.Sprintf("entry %d has type %q (use plain or regex)", i+1, e.Type))
		case e.Mode != SecretObfuscate && e.Mode != SecretReplace:
			problems = append(problems, fmt.Sprintf("entry %d has mode %q (use obfuscate or replace)", i+1, e.Mode))
		default:
			out = append(out, e)
		}
	}
	if len(problems) > 0 {
		return out, fmt.Errorf("secrets file %s: %s; those entries were skipped", path, strings.Join(problems, "; "))
	}
	return out, nil
}
