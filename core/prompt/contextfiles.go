package prompt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Context-file discovery follows the reference's rules:
//
//   - One user-level file: the user directories are tried in priority order
//     (gopi's agent dir, then omp's, claude's, codex's, gemini's) and the
//     first that holds a non-empty context file supplies it; the others are
//     shadowed.
//   - Project files: the working directory and its ancestors, up to the
//     repository root (else the home directory, else the filesystem root)
//     and at most MaxDepth levels up. Configuration directories (.gopi,
//     .omp, .claude, .gemini) count at their nearest ancestor only: for
//     each, the closest directory level holding a non-empty one is where
//     its context file is looked for, as nested workspaces inherit the
//     nearest configuration. Standalone files (AGENTS.md, then CLAUDE.md)
//     are looked for at every level except inside hidden directories.
//   - One project file per level: at each level the configuration
//     directories win over standalone files, in priority order, and the
//     first existing non-empty file is the level's file. Several levels
//     each contribute their file, so a monorepo's root and package
//     AGENTS.md both apply.
//   - Files with identical content are kept once, at their last place.
//
// The prompt lists the user file first, then project files from the
// farthest level to the working directory, so that more specific
// instructions come later. (The reference lists the user file last; we put
// the general before the specific, which is also the order the prompt
// tells the model to resolve conflicts by.)

// Level says whom a context file comes from.
type Level string

// Levels of context files.
const (
	LevelUser    Level = "user"    // the user's own instructions, for every project
	LevelProject Level = "project" // a file in the working directory or one of its ancestors
)

// Defaults of DiscoverOptions.
const (
	DefaultMaxDepth        = 20       // directory levels searched above the working directory
	DefaultMaxContextBytes = 32 << 10 // bytes of one context file put into the prompt
)

// DefaultFileNames are the standalone context files looked for in the
// working directory and its ancestors, in priority order. The reference
// reads AGENTS.md there; CLAUDE.md is added for projects set up for Claude
// Code only, and shadowed by an AGENTS.md at the same level.
var DefaultFileNames = []string{"AGENTS.md", "CLAUDE.md"}

// ContextFile is one instruction file found for the prompt.
type ContextFile struct {
	Path      string // absolute path
	Content   string // the text, cut to the size cap when Truncated
	Level     Level  // user or project
	Depth     int    // project files: levels above the working directory (0 = in it)
	Source    string // convention it belongs to (gopi, omp, claude, codex, gemini), "" for a standalone file
	Size      int64  // size of the whole file in bytes
	Truncated bool   // Content is only the beginning of the file
}

// SourceDir is a user-level configuration directory that may hold a
// context file.
type SourceDir struct {
	Path   string // absolute directory, e.g. /home/u/.gopi/agent or /home/u/.claude
	Source string // gopi, omp, claude, codex, gemini, …
	File   string // the context file's name in it; "" for DefaultFileName(Source)
}

// ProjectDir is a project-level configuration directory, looked for in the
// working directory and its ancestors.
type ProjectDir struct {
	Name   string // directory name, e.g. ".gopi" or ".claude"
	Source string // gopi, omp, claude, gemini, …
	File   string // the context file's name in it; "" for DefaultFileName(Source)
}

// DefaultFileName is the context file a source keeps in its configuration
// directories: CLAUDE.md for claude, GEMINI.md for gemini, else AGENTS.md.
func DefaultFileName(source string) string {
	switch source {
	case "claude":
		return "CLAUDE.md"
	case "gemini":
		return "GEMINI.md"
	}
	return "AGENTS.md"
}

// DefaultUserDirs returns the user-level directories in priority order:
// gopi's agent directory (home/.gopi/agent when agentDir is ""), then
// omp's ~/.omp/agent, ~/.claude, ~/.codex and ~/.gemini.
func DefaultUserDirs(home, agentDir string) []SourceDir {
	if agentDir == "" {
		agentDir = filepath.Join(home, ".gopi", "agent")
	}
	return []SourceDir{
		{Path: agentDir, Source: "gopi"},
		{Path: filepath.Join(home, ".omp", "agent"), Source: "omp"},
		{Path: filepath.Join(home, ".claude"), Source: "claude"},
		{Path: filepath.Join(home, ".codex"), Source: "codex"},
		{Path: filepath.Join(home, ".gemini"), Source: "gemini"},
	}
}

// DefaultProjectDirs returns the project-level configuration directories
// in priority order. Codex keeps no project context file, so .codex is not
// among them.
func DefaultProjectDirs() []ProjectDir {
	return []ProjectDir{
		{Name: ".gopi", Source: "gopi"},
		{Name: ".omp", Source: "omp"},
		{Name: ".claude", Source: "claude"},
		{Name: ".gemini", Source: "gemini"},
	}
}

// DiscoverOptions says where to look for context files.
type DiscoverOptions struct {
	Cwd          string       // absolute working directory (required)
	Home         string       // home directory: the walk stops there when no repository holds Cwd
	RepoRoot     string       // root of the repository holding Cwd; "" looks for a .git entry
	UserDirs     []SourceDir  // nil: DefaultUserDirs(Home, ""); empty: no user-level file
	ProjectDirs  []ProjectDir // nil: DefaultProjectDirs(); empty: none
	FileNames    []string     // standalone names; nil: DefaultFileNames
	MaxDepth     int          // levels above Cwd; 0: DefaultMaxDepth
	MaxFileBytes int          // cap per file; 0: DefaultMaxContextBytes; negative: no cap
}

// DiscoverContextFiles finds the context files for opts.Cwd (see the rules
// above), user file first, then project files from the farthest level to
// Cwd. A file that exists but cannot be read is skipped and named in the
// returned error, which wraps every such failure; the files found are
// returned either way.
func DiscoverContextFiles(opts DiscoverOptions) ([]ContextFile, error) {
	if !filepath.IsAbs(opts.Cwd) {
		return nil, fmt.Errorf("context files: working directory %q is not absolute", opts.Cwd)
	}
	files, errs := discover(opts, false)
	return files, errors.Join(errs...)
}

// discover is DiscoverContextFiles for an absolute opts.Cwd, returning the
// read failures one by one; rootKnown says an empty opts.RepoRoot means
// there is no repository (the caller has looked already).
func discover(opts DiscoverOptions, rootKnown bool) ([]ContextFile, []error) {
	cwd := filepath.Clean(opts.Cwd)
	root := opts.RepoRoot
	if root == "" && !rootKnown {
		root, _, _ = FindRepoRoot(cwd)
	}
	d := discovery{limit: opts.MaxFileBytes}
	if d.limit == 0 {
		d.limit = DefaultMaxContextBytes
	}

	userDirs := opts.UserDirs
	if userDirs == nil {
		userDirs = DefaultUserDirs(opts.Home, "")
	}
	var out []ContextFile
	for _, dir := range userDirs {
		if dir.Path == "" {
			continue
		}
		name := dir.File
		if name == "" {
			name = DefaultFileName(dir.Source)
		}
		if f, ok := d.read(filepath.Join(dir.Path, name)); ok {
			f.Level, f.Source = LevelUser, dir.Source
			out = append(out, f)
			break
		}
	}

	levels := ancestors(cwd, root, filepath.Clean(opts.Home), opts.MaxDepth)
	projectDirs := opts.ProjectDirs
	if projectDirs == nil {
		projectDirs = DefaultProjectDirs()
	}
	// nearest[i] is the level index of project directory i's nearest
	// non-empty instance, or -1.
	nearest := make([]int, len(projectDirs))
	for i, pd := range projectDirs {
		nearest[i] = -1
		for l, dir := range levels {
			if nonEmptyDir(filepath.Join(dir, pd.Name)) {
				nearest[i] = l
				break
			}
		}
	}
	names := opts.FileNames
	if names == nil {
		names = DefaultFileNames
	}
	project := make([]ContextFile, 0, 2)
	for l, dir := range levels {
		f, ok := d.level(dir, l, projectDirs, nearest, names)
		if ok {
			f.Level, f.Depth = LevelProject, l
			project = append(project, f)
		}
	}
	for i := len(project) - 1; i >= 0; i-- { // farthest level first
		out = append(out, project[i])
	}
	return dedupeContent(out), d.errs
}

// discovery holds the state of one DiscoverContextFiles call.
type discovery struct {
	limit int     // per-file byte cap; negative: none
	errs  []error // files that exist but could not be read
}

// level returns the project file of one directory level: the first
// configuration directory whose nearest instance is here and holds a
// context file, else the first standalone file (unless the directory is
// hidden).
func (d *discovery) level(dir string, l int, projectDirs []ProjectDir, nearest []int, names []string) (ContextFile, bool) {
	for i, pd := range projectDirs {
		if nearest[i] != l {
			continue
		}
		name := pd.File
		if name == "" {
			name = DefaultFileName(pd.Source)
		}
		if f, ok := d.read(filepath.Join(dir, pd.Name, name)); ok {
			f.Source = pd.Source
			return f, true
		}
	}
	if hidden(dir) {
		return ContextFile{}, false
	}
	for _, name := range names {
		if f, ok := d.read(filepath.Join(dir, name)); ok {
			return f, true
		}
	}
	return ContextFile{}, false
}

// read loads one candidate file, cut to the cap. Missing files, directories
// and files holding only white space are not context files; other failures
// are recorded.
func (d *discovery) read(path string) (ContextFile, bool) {
	f, err := os.Open(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) {
			d.errs = append(d.errs, fmt.Errorf("context file %s skipped: %w", path, err))
		}
		return ContextFile{}, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return ContextFile{}, false
	}
	var r io.Reader = f
	if d.limit >= 0 {
		r = io.LimitReader(f, int64(d.limit)+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("context file %s skipped: %w", path, err))
		return ContextFile{}, false
	}
	cf := ContextFile{Path: path, Size: max(info.Size(), int64(len(data)))}
	if d.limit >= 0 && len(data) > d.limit {
		data, cf.Truncated = cut(data, d.limit), true
	}
	cf.Content = string(data)
	if strings.TrimSpace(cf.Content) == "" {
		return ContextFile{}, false
	}
	return cf, true
}

// cut shortens data to at most limit bytes, at the last line break in the
// second half of that window when there is one, else at a character
// boundary.
func cut(data []byte, limit int) []byte {
	data = data[:limit]
	if i := strings.LastIndexByte(string(data), '\n'); i >= limit/2 {
		return data[:i+1]
	}
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				data = data[:i]
			}
			break
		}
	}
	return data
}

// ancestors returns cwd and its parents, nearest first: at most maxDepth
// levels above cwd (DefaultMaxDepth when maxDepth is 0), ending at the
// repository root when there is one, else at home when cwd is inside it,
// else at the filesystem root.
func ancestors(cwd, repoRoot, home string, maxDepth int) []string {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	stop := ""
	switch {
	case repoRoot != "":
		stop = filepath.Clean(repoRoot)
	case home != "" && home != "." && within(cwd, home):
		stop = home
	}
	out := make([]string, 0, 8)
	for dir := cwd; len(out) <= maxDepth; {
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if dir == stop || parent == dir {
			break
		}
		dir = parent
	}
	return out
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// hidden reports whether dir's own name starts with a dot.
func hidden(dir string) bool {
	base := filepath.Base(dir)
	return len(base) > 1 && base[0] == '.'
}

// nonEmptyDir reports whether path is a directory with at least one entry.
func nonEmptyDir(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) > 0
}

// isNotDir reports a path through a regular file (ENOTDIR).
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// dedupeContent drops files whose content equals a later file's, keeping
// the later one (the more specific place).
func dedupeContent(files []ContextFile) []ContextFile {
	if len(files) < 2 {
		return files
	}
	last := make(map[string]int, len(files))
	for i, f := range files {
		last[f.Content] = i
	}
	out := files[:0]
	for i, f := range files {
		if last[f.Content] == i {
			out = append(out, f)
		}
	}
	return out
}
