// Package skills finds the user's and the project's skills and serves
// them to the model.
//
// A skill is a directory holding a SKILL.md file: markdown with a front
// matter naming it and saying when it helps. The system prompt lists each
// skill's name and description; the model reads the body on demand as
// skill://<name>, and files beside it as skill://<name>/<relative path>.
// The user can also paste a skill into the conversation with
// /skill:<name> [arguments].
//
// Discovery looks one level deep in every root the configuration names
// (config.Dirs.SkillDirs: gopi's and omp's own directories first, then
// Claude's, the .agents and Codex directories, OpenCode's, then
// skills.customDirectories): <root>/<name>/SKILL.md. The first skill of a
// name wins; a later one is reported as shadowed. Files whose front
// matter is broken still load (see package frontmatter) and the problem
// is reported as a warning naming the file, so one bad file never stops a
// session.
package skills

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/frontmatter"
)

// FileName is the file that makes a directory a skill.
const FileName = "SKILL.md"

// Scheme is the internal URL scheme of skills.
const Scheme = "skill://"

// MaxFileBytes caps how much of a skill file is read.
const MaxFileBytes = 1 << 20

// Skill is one discovered skill.
type Skill struct {
	Name        string         // from the front matter, else the directory name
	Description string         // when the skill applies; shown in the system prompt
	Path        string         // absolute path of SKILL.md
	BaseDir     string         // the skill's directory: skill://<name>/<rel> reads below it
	Provider    string         // config.Provider* of the root it came from
	Level       config.Level   // user or project
	Globs       []string       // the front matter's globs (advisory)
	Meta        map[string]any // the whole front matter
}

// Options say where and which skills to discover.
type Options struct {
	Roots    []config.ResourceDir // in precedence order (config.Dirs.SkillDirs)
	Settings config.Skills        // toggles, filters and custom directories
	// Patterns, when not empty, keep only skills whose name matches one of
	// these globs (--skills=git-*,docker).
	Patterns []string
}

// Set is the discovered skills, in precedence order.
type Set struct {
	list []*Skill
}

// Discover finds the skills opts describe. Problems with single files
// (unreadable, broken front matter, a native skill without a description,
// a shadowed name) are returned as warnings; discovery itself never fails.
func Discover(opts Options) (*Set, []error) {
	set := &Set{}
	if !opts.Settings.Enabled {
		return set, nil
	}
	var warns []error
	seenName := map[string]*Skill{}
	seenFile := map[string]bool{}
	roots := slices.Clone(opts.Roots)
	for _, d := range opts.Settings.CustomDirectories {
		roots = append(roots, config.ResourceDir{Path: d, Provider: config.ProviderCustom, Priority: 0, Level: config.LevelUser})
	}
	for _, root := range roots {
		if !sourceEnabled(root, opts.Settings) {
			continue
		}
		requireDesc := root.Provider == config.ProviderNative || root.Provider == config.ProviderCustom
		for _, sk := range scanRoot(root, requireDesc, &warns) {
			real, err := filepath.EvalSymlinks(sk.Path)
			if err != nil {
				real = sk.Path
			}
			if seenFile[real] {
				continue
			}
			seenFile[real] = true
			if prev := seenName[sk.Name]; prev != nil {
				warns = append(warns, fmt.Errorf("skill %q in %s is shadowed by %s: %w", sk.Name, sk.Path, prev.Path, config.ErrShadowed))
				continue
			}
			if !keep(sk.Name, opts) {
				continue
			}
			seenName[sk.Name] = sk
			set.list = append(set.list, sk)
		}
	}
	return set, warns
}

// scanRoot reads <root>/*/SKILL.md, in name order.
func scanRoot(root config.ResourceDir, requireDesc bool, warns *[]error) []*Skill {
	entries, err := os.ReadDir(root.Path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			*warns = append(*warns, fmt.Errorf("skills directory %s: %w", root.Path, err))
		}
		return nil
	}
	var out []*Skill
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root.Path, e.Name())
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		file := filepath.Join(dir, FileName)
		data, err := readCapped(file)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				*warns = append(*warns, fmt.Errorf("skill %s: %w", file, err))
			}
			continue
		}
		meta, _, ferr := frontmatter.Parse(data)
		if ferr != nil {
			*warns = append(*warns, fmt.Errorf("skill %s: %w", file, ferr))
		}
		sk := &Skill{
			Name:        frontmatter.String(meta, "name"),
			Description: frontmatter.String(meta, "description"),
			Path:        file,
			BaseDir:     dir,
			Provider:    root.Provider,
			Level:       root.Level,
			Globs:       frontmatter.Strings(meta, "globs"),
			Meta:        meta,
		}
		if sk.Name == "" {
			sk.Name = e.Name()
		}
		if requireDesc && sk.Description == "" {
			*warns = append(*warns, fmt.Errorf("skill %s has no description in its front matter and is left out; add \"description: <when to use it>\"", file))
			continue
		}
		out = append(out, sk)
	}
	return out
}

// sourceEnabled applies the skills.enable* toggles to a root. Providers
// without their own toggle are on while any toggle is.
func sourceEnabled(root config.ResourceDir, st config.Skills) bool {
	user := root.Level == config.LevelUser
	switch root.Provider {
	case config.ProviderNative:
		if user {
			return st.EnableNativeUser
		}
		return st.EnableNativeProject
	case config.ProviderClaude:
		if user {
			return st.EnableClaudeUser
		}
		return st.EnableClaudeProject
	case config.ProviderCodex:
		return st.EnableCodexUser
	case config.ProviderCustom:
		return true
	}
	return st.EnableNativeUser || st.EnableNativeProject || st.EnableClaudeUser || st.EnableClaudeProject || st.EnableCodexUser
}

// keep applies disabledExtensions, ignoredSkills, includeSkills and the
// --skills patterns, in that order.
func keep(name string, opts Options) bool {
	if slices.Contains(opts.Settings.DisabledExtensions, "skill:"+name) {
		return false
	}
	if matchAny(opts.Settings.Ignored, name) {
		return false
	}
	if len(opts.Settings.Include) > 0 && !matchAny(opts.Settings.Include, name) {
		return false
	}
	if len(opts.Patterns) > 0 && !matchAny(opts.Patterns, name) {
		return false
	}
	return true
}

// matchAny reports whether name matches one of the globs.
func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		g = strings.TrimSpace(g)
		if g == name {
			return true
		}
		if ok, err := path.Match(g, name); err == nil && ok {
			return true
		}
	}
	return false
}

// List returns the skills in precedence order.
func (s *Set) List() []*Skill {
	if s == nil {
		return nil
	}
	return slices.Clone(s.list)
}

// Len returns the number of skills.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.list)
}

// Get returns the skill of a name.
func (s *Set) Get(name string) (*Skill, bool) {
	if s == nil {
		return nil, false
	}
	for _, sk := range s.list {
		if sk.Name == name {
			return sk, true
		}
	}
	return nil, false
}

// Names returns the skill names, sorted.
func (s *Set) Names() []string {
	var out []string
	for _, sk := range s.List() {
		out = append(out, sk.Name)
	}
	sort.Strings(out)
	return out
}

// Errors of Resolve.
var (
	ErrBadPath  = errors.New("skill path not allowed")
	ErrNotFound = errors.New("not found")
)

// Resolve maps skill://<name>[/<relative path>] to a file: the skill's
// SKILL.md, or the relative path (URL-decoded) below its directory. An
// absolute path, a ".." segment, or a path that leads out of the skill's
// directory through a symbolic link is refused with ErrBadPath; an unknown
// skill or a missing file gives ErrNotFound.
func (s *Set) Resolve(u string) (string, error) {
	rest, ok := strings.CutPrefix(u, Scheme)
	if !ok {
		return "", fmt.Errorf("%s is not a skill:// URL", u)
	}
	name, rel, _ := strings.Cut(rest, "/")
	if name == "" {
		return "", fmt.Errorf("%s names no skill: use skill://<name>; skills: %s: %w", u, s.available(), ErrNotFound)
	}
	sk, ok := s.Get(name)
	if !ok {
		return "", fmt.Errorf("unknown skill %q; skills: %s: %w", name, s.available(), ErrNotFound)
	}
	if rel == "" {
		return sk.Path, nil
	}
	dec, err := url.PathUnescape(rel)
	if err != nil {
		return "", fmt.Errorf("%s: bad escape in the path: %w", u, ErrBadPath)
	}
	if strings.HasPrefix(dec, "/") || strings.HasPrefix(dec, `\`) || filepath.IsAbs(dec) || filepath.VolumeName(dec) != "" {
		return "", fmt.Errorf("%s: absolute paths are not allowed; give a path relative to the skill's directory: %w", u, ErrBadPath)
	}
	for _, seg := range strings.FieldsFunc(dec, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return "", fmt.Errorf("%s: \"..\" is not allowed; only files inside the skill's directory can be read: %w", u, ErrBadPath)
		}
	}
	p := filepath.Join(sk.BaseDir, filepath.FromSlash(dec))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("File not found: %s (%s): %w", u, p, ErrNotFound)
		}
		return "", fmt.Errorf("%s: %w", u, err)
	}
	base, err := filepath.EvalSymlinks(sk.BaseDir)
	if err != nil {
		base = sk.BaseDir
	}
	if r, err := filepath.Rel(base, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s leads outside the skill's directory: %w", u, ErrBadPath)
	}
	return p, nil
}

// available lists the skill names for error messages.
func (s *Set) available() string {
	n := s.Names()
	if len(n) == 0 {
		return "(none)"
	}
	return strings.Join(n, ", ")
}

// Read returns the content behind a skill:// URL and the file it came
// from.
func (s *Set) Read(u string) (content, file string, err error) {
	file, err = s.Resolve(u)
	if err != nil {
		return "", "", err
	}
	data, err := readCapped(file)
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", u, err)
	}
	return string(data), file, nil
}

// ContentType returns the content type of a skill file: text/markdown for
// .md, else text/plain.
func ContentType(file string) string {
	if strings.EqualFold(filepath.Ext(file), ".md") {
		return "text/markdown"
	}
	return "text/plain"
}

// readCapped reads up to MaxFileBytes of a file.
func readCapped(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", file)
	}
	buf := make([]byte, min(fi.Size(), MaxFileBytes))
	n, err := io.ReadFull(f, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil // the file shrank while being read
	}
	return buf[:n], err
}

// CommandMessage is the text /skill:<name> [args] puts into the
// conversation: the skill's body without its front matter, then where it
// came from and what the user added.
func (s *Set) CommandMessage(name, args string) (string, *Skill, error) {
	sk, ok := s.Get(name)
	if !ok {
		return "", nil, fmt.Errorf("unknown skill %q; skills: %s", name, s.available())
	}
	data, err := readCapped(sk.Path)
	if err != nil {
		return "", nil, fmt.Errorf("skill %s: %w", name, err)
	}
	_, body, _ := frontmatter.Parse(data)
	var b strings.Builder
	b.WriteString(body)
	b.WriteString("\n\n---\n\nSkill: ")
	b.WriteString(sk.Path)
	if a := strings.TrimSpace(args); a != "" {
		b.WriteString("\nUser: ")
		b.WriteString(a)
	}
	return b.String(), sk, nil
}
