package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// Locations says where session files live. Sessions of a working directory
// are kept in a project directory under a sessions root, named after the
// directory: "--" + the path without its leading separator, with '/', '\'
// and ':' replaced by '-', + "--". omp 14 names project directories inside
// the home directory "-<path relative to home>" (and inside the temporary
// directory "-tmp-<relative path>"); those names are searched too, so an
// omp user's sessions are found.
type Locations struct {
	Roots      []string // sessions roots in priority order: gopi's <agent dir>/sessions, then omp's ~/.omp/agent/sessions
	Home       string   // the user's home directory, for omp's home-relative names ("" skips them)
	Temp       string   // the temporary directory, for omp's "-tmp" names ("" skips them)
	SessionDir string   // --session-dir: the one directory holding this project's sessions, instead of the roots
}

// EncodeCwd returns the project directory name for a working directory:
// "--" + cwd without its leading separator, '/', '\' and ':' as '-', + "--".
func EncodeCwd(cwd string) string {
	s := cwd
	if len(s) > 0 && (s[0] == '/' || s[0] == '\\') {
		s = s[1:]
	}
	return "--" + strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(s) + "--"
}

// NewSessionDir returns the directory new sessions of cwd go in.
func (l Locations) NewSessionDir(cwd string) string {
	if l.SessionDir != "" {
		return l.SessionDir
	}
	if len(l.Roots) == 0 {
		return ""
	}
	return filepath.Join(l.Roots[0], EncodeCwd(cwd))
}

// ProjectDirs returns the directories that may hold sessions of cwd, in
// priority order.
func (l Locations) ProjectDirs(cwd string) []string {
	if l.SessionDir != "" {
		return []string{l.SessionDir}
	}
	names := []string{EncodeCwd(cwd)}
	if n := relativeName("-", l.Home, cwd); n != "" {
		names = append(names, n)
	} else if n := relativeName("-tmp", l.Temp, cwd); n != "" {
		names = append(names, n)
	}
	var dirs []string
	for _, r := range l.Roots {
		for _, n := range names {
			dirs = append(dirs, filepath.Join(r, n))
		}
	}
	return dirs
}

// relativeName is omp's project directory name for cwd inside root.
func relativeName(prefix, root, cwd string) string {
	if root == "" {
		return ""
	}
	rel, err := filepath.Rel(root, cwd)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ""
	}
	if rel == "." {
		return prefix
	}
	rel = strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(rel)
	if strings.HasSuffix(prefix, "-") {
		return prefix + rel
	}
	return prefix + "-" + rel
}

// Info is what a session list shows, read from the first 4 KiB of a file.
type Info struct {
	Path          string    // the session file
	ID            string    // session id
	Cwd           string    // working directory ("" for old files)
	Title         string    // header title, else the latest short compaction summary in the prefix
	ParentSession string    // lineage marker from the header
	Created       time.Time // header timestamp (zero when unreadable)
	Modified      time.Time // file modification time
	Size          int64     // file size in bytes
	MessageCount  int       // message entries seen in the prefix (a lower bound for long files)
	Partial       bool      // the file is longer than the prefix read: MessageCount is a lower bound
	FirstMessage  string    // text of the first user message, "" when none in the prefix
	// Children are the subagent sessions this one started (the task
	// tool's child sessions in its artifacts directory, nested as they
	// were started), oldest first. List and ListAll fill it.
	Children []Info
}

// listPrefix is how much of each file List reads.
const listPrefix = 4096

// List returns the sessions of cwd, newest (by modification time) first.
// Unreadable files and files that are not sessions are skipped.
func List(l Locations, cwd string) ([]Info, error) {
	return listDirs(l.ProjectDirs(cwd))
}

// ListAll returns the sessions of every project under the roots (or in
// SessionDir), newest first.
func ListAll(l Locations) ([]Info, error) {
	if l.SessionDir != "" {
		return listDirs([]string{l.SessionDir})
	}
	var dirs []string
	for _, r := range l.Roots {
		ents, err := os.ReadDir(r)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(r, e.Name()))
			}
		}
	}
	return listDirs(dirs)
}

func listDirs(dirs []string) ([]Info, error) {
	var out []Info
	seen := map[string]bool{}
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
				continue
			}
			p := filepath.Join(d, e.Name())
			if seen[p] {
				continue
			}
			seen[p] = true
			if info, ok := readInfo(p); ok {
				info.Children = children(info)
				out = append(out, info)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Info) int { return b.Modified.Compare(a.Modified) })
	return out, nil
}

// children lists the subagent sessions of a session: the .jsonl files in
// its artifacts directory (the file's path without ".jsonl") whose header
// names a parent. They are arranged by that parent, so a subagent's own
// subagents nest under it; one whose parent is not among them (moved or
// deleted) hangs off the session itself.
func children(parent Info) []Info {
	dir := strings.TrimSuffix(parent.Path, ".jsonl")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var found []Info
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		if info, ok := readInfo(filepath.Join(dir, e.Name())); ok && info.ParentSession != "" {
			found = append(found, info)
		}
	}
	if len(found) == 0 {
		return nil
	}
	// Task ids are numbered in the order they were started ("<n>-<name>");
	// files without a number sort after them by creation.
	slices.SortStableFunc(found, func(a, b Info) int {
		na, aok := taskNumber(a.Path)
		nb, bok := taskNumber(b.Path)
		switch {
		case aok && bok && na != nb:
			return na - nb
		case aok != bok:
			if aok {
				return -1
			}
			return 1
		}
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	// The parent link is a path (what the task tool writes) or an id.
	byLink := make(map[string]int, 2*len(found))
	for i, c := range found {
		byLink[filepath.Clean(c.Path)] = i
		if c.ID != "" {
			byLink[c.ID] = i
		}
	}
	kids := make([][]int, len(found))
	var top []int
	for i, c := range found {
		p, ok := byLink[c.ParentSession]
		if !ok {
			p, ok = byLink[filepath.Clean(c.ParentSession)]
		}
		if ok && p != i {
			kids[p] = append(kids[p], i)
		} else {
			top = append(top, i)
		}
	}
	// A parent link that loops (hand-edited files) would never be reached
	// from top; such sessions are listed at the top instead.
	placed := make([]bool, len(found))
	var build func(i int, depth int) Info
	build = func(i int, depth int) Info {
		placed[i] = true
		info := found[i]
		for _, k := range kids[i] {
			if !placed[k] && depth < maxChildDepth {
				info.Children = append(info.Children, build(k, depth+1))
			}
		}
		return info
	}
	var out []Info
	for _, i := range top {
		out = append(out, build(i, 0))
	}
	for i := range found {
		if !placed[i] {
			out = append(out, build(i, 0))
		}
	}
	return out
}

// taskNumber is the leading number of a subagent session's file name
// ("12-Tests.jsonl" → 12).
func taskNumber(path string) (int, bool) {
	name := filepath.Base(path)
	digits, _, ok := strings.Cut(name, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n >= 0 && n < 1<<30
}

// maxChildDepth bounds how deep children nest in a listing.
const maxChildDepth = 32

// readInfo reads a session's metadata from the start of its file.
func readInfo(path string) (Info, bool) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Info{}, false
	}
	buf := make([]byte, listPrefix)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Info{}, false
	}
	buf = buf[:n]
	lines := bytes.Split(buf, []byte("\n"))
	h, err := parseHeader(lines[0])
	if err != nil && !errors.Is(err, ErrNewerVersion) {
		return Info{}, false
	}
	info := Info{Path: path, ID: h.ID, Cwd: h.Cwd, Title: h.Title, ParentSession: h.ParentSession,
		Created: parseTime(h.Timestamp), Modified: fi.ModTime(), Size: fi.Size()}
	info.MessageCount = bytes.Count(buf, []byte(`"type":"message"`))
	info.Partial = fi.Size() > int64(n)
	short := ""
	for _, l := range lines[1:] {
		var v struct {
			Type         string          `json:"type"`
			ShortSummary string          `json:"shortSummary"`
			Message      json.RawMessage `json:"message"`
		}
		if json.Unmarshal(l, &v) != nil {
			continue
		}
		if v.Type == TypeCompaction && v.ShortSummary != "" {
			short = v.ShortSummary
		}
		if v.Type == TypeMessage && info.FirstMessage == "" {
			if u, ok := firstUser(v.Message); ok {
				info.FirstMessage = u
			}
		}
	}
	if info.Title == "" {
		info.Title = short
	}
	return info, true
}

func firstUser(raw json.RawMessage) (string, bool) {
	m, err := ai.UnmarshalMessage(raw)
	if err != nil {
		return "", false
	}
	u, ok := m.(*ai.UserMessage)
	if !ok {
		return "", false
	}
	var parts []string
	for _, c := range u.Content {
		if t, ok := c.(*ai.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	s := strings.Join(parts, " ")
	return s, s != ""
}

// ContinueRecent opens the newest session of cwd, or creates a new one
// (in l.NewSessionDir(cwd)) when there is none.
func ContinueRecent(l Locations, cwd string, opts Options) (*Manager, error) {
	infos, _ := List(l, cwd)
	if len(infos) > 0 {
		return Open(infos[0].Path, opts)
	}
	if opts.Dir == "" {
		opts.Dir = l.NewSessionDir(cwd)
	}
	if opts.Cwd == "" {
		opts.Cwd = cwd
	}
	return Create(opts)
}

// ErrNoMatch is returned by Resolve when no session matches.
var ErrNoMatch = errors.New("no session matches")

// ErrAmbiguous is returned by Resolve when a prefix matches several sessions.
var ErrAmbiguous = errors.New("several sessions match")

// ErrNotSessionPath is returned by Resolve for a path argument that names
// something that cannot be a session file: a directory, a dangling
// symbolic link, a device or pipe, or nothing at all.
var ErrNotSessionPath = errors.New("not a session file")

// Resolve finds the session file for a --resume argument: a path to a
// file, or a prefix of a session id or file name. Sessions of cwd are
// searched first, then (without SessionDir) every project. A prefix that
// matches several sessions is an error listing them. An argument that
// looks like a path (it has a path separator or ends in .jsonl) and names
// something other than a readable regular file is an error saying what it
// is (ErrNotSessionPath, or the reason it cannot be read), unless nothing
// exists there and it is also the prefix of a session.
func Resolve(l Locations, cwd, arg string) (string, error) {
	if arg == "" {
		return "", fmt.Errorf("session: %w: empty session id", ErrNoMatch)
	}
	var pathErr error
	if strings.ContainsRune(arg, filepath.Separator) || strings.HasSuffix(arg, ".jsonl") {
		p, err := checkSessionPath(arg)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		pathErr = err
	}
	if pathErr != nil && strings.ContainsRune(arg, filepath.Separator) {
		return "", pathErr // no id or file name has a separator
	}
	local, _ := List(l, cwd)
	if p, err := pick(local, arg); p != "" || err != nil {
		return p, err
	}
	if l.SessionDir == "" {
		all, _ := ListAll(l)
		if p, err := pick(all, arg); p != "" || err != nil {
			return p, err
		}
	}
	if pathErr != nil {
		return "", pathErr
	}
	return "", fmt.Errorf("session %q: %w (list sessions with --resume and no id)", arg, ErrNoMatch)
}

// pickHint is what to do about a path that is not a session file.
const pickHint = "run gopi --resume without an argument to pick a session from a list"

// notSessionPath is an ErrNotSessionPath with its own text (and, for a
// path where nothing exists, also an fs.ErrNotExist).
type notSessionPath struct {
	msg     string
	missing bool
}

func (e *notSessionPath) Error() string { return e.msg }

func (e *notSessionPath) Is(target error) bool {
	return target == ErrNotSessionPath || (e.missing && target == fs.ErrNotExist)
}

// fileKind names the kind of a file that is neither regular nor a
// directory.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// checkSessionPath returns the absolute path of arg when it names a
// regular file that can be read (through symbolic links), else an error
// that says what is there instead and what to do. Only a regular file is
// opened: a named pipe would block its reader.
func checkSessionPath(arg string) (string, error) {
	li, err := os.Lstat(arg)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", &notSessionPath{msg: fmt.Sprintf("%s does not exist: check the path, or %s", arg, pickHint), missing: true}
	case err != nil:
		return "", fmt.Errorf("cannot read session file %s: %w; check the path and its permissions", arg, err)
	}
	fi := li
	if li.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(arg)
		fi, err = os.Stat(arg)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", &notSessionPath{msg: fmt.Sprintf("%s is a symbolic link to %s, which does not exist: give the session file itself, or point the link at it", arg, target)}
		case err != nil:
			return "", fmt.Errorf("cannot read session file %s (a symbolic link to %s): %w; check the link and the permissions of its target", arg, target, err)
		}
	}
	switch {
	case fi.IsDir():
		return "", &notSessionPath{msg: fmt.Sprintf("%s is a directory, not a session file: give one of the .jsonl files in it, or %s", arg, pickHint)}
	case !fi.Mode().IsRegular():
		return "", &notSessionPath{msg: fmt.Sprintf("%s is %s, not a session file: give a session .jsonl file, or %s", arg, fileKind(fi.Mode()), pickHint)}
	}
	f, err := os.Open(arg)
	if err != nil {
		return "", fmt.Errorf("cannot read session file %s: %w; check its permissions", arg, err)
	}
	f.Close()
	return filepath.Abs(arg)
}

// pick returns the one session matching arg, or an ambiguity error.
func pick(infos []Info, arg string) (string, error) {
	a := strings.ToLower(arg)
	var matches []Info
	for _, in := range infos {
		id := strings.ToLower(in.ID)
		if id == a {
			return in.Path, nil
		}
		name := strings.ToLower(strings.TrimSuffix(filepath.Base(in.Path), ".jsonl"))
		fileID := name
		if i := strings.LastIndexByte(name, '_'); i >= 0 {
			fileID = name[i+1:]
		}
		if strings.HasPrefix(id, a) || strings.HasPrefix(name, a) || strings.HasPrefix(fileID, a) {
			matches = append(matches, in)
		}
	}
	switch len(matches) {
	case 0:
		return "", nil
	case 1:
		return matches[0].Path, nil
	}
	var b strings.Builder
	for _, m := range matches {
		title := m.Title
		if title == "" {
			title = m.FirstMessage
		}
		if r := []rune(title); len(r) > 60 {
			title = string(r[:60]) + "…"
		}
		fmt.Fprintf(&b, "\n  %s  %s  %s", m.ID, m.Modified.Format("2006-01-02 15:04"), title)
	}
	return "", fmt.Errorf("session %q: %w; give more of the id:%s", arg, ErrAmbiguous, b.String())
}
