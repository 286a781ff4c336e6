// Package templates finds prompt templates and command files and expands
// them: typing /name args sends the file's text with the arguments filled
// in.
//
// Templates are <name>.md files in gopi's and omp's prompts/ and
// commands/ directories (project before user), Claude Code's commands/
// and Codex's ~/.codex/prompts (config.Dirs.TemplateDirs); the first file
// of a name wins. A front matter may give a description (shown in
// completion lists); without one the first line of the body is used.
//
// The arguments are split like a shell does (quotes group words) and fill
// these placeholders:
//
//	$1 … $9         the n-th argument ("" when missing)
//	$@, $ARGUMENTS  all arguments joined with spaces
//	${@:N}          the arguments from the N-th on
//	${@:N:L}        L arguments from the N-th on
//
// A template without placeholders is sent as written; any arguments are
// then added after a blank line, so they are never dropped silently.
package templates

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/frontmatter"
)

// Template is one prompt template or command file.
type Template struct {
	Name        string // the file name without .md: /Name runs it
	Description string // the front matter's description, else the body's first line
	Content     string // the body, front matter removed
	Path        string // absolute file path
	Provider    string // config.Provider* of its directory
	Level       config.Level
}

// Set is the discovered templates by name.
type Set struct {
	list []*Template
}

// Discover reads the templates in dirs (in precedence order). Problems
// with single files are warnings naming the file.
func Discover(dirs []config.ResourceDir) (*Set, []error) {
	set := &Set{}
	var warns []error
	seen := map[string]*Template{}
	for _, d := range dirs {
		entries, err := os.ReadDir(d.Path)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				warns = append(warns, fmt.Errorf("templates directory %s: %w", d.Path, err))
			}
			continue
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") && !strings.HasPrefix(e.Name(), ".") {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			file := filepath.Join(d.Path, n)
			data, err := os.ReadFile(file)
			if err != nil {
				warns = append(warns, fmt.Errorf("template %s: %w", file, err))
				continue
			}
			meta, body, ferr := frontmatter.Parse(data)
			if ferr != nil {
				warns = append(warns, fmt.Errorf("template %s: %w", file, ferr))
			}
			t := &Template{Name: d.NamePrefix + strings.TrimSuffix(n, ".md"), Description: frontmatter.String(meta, "description"), Content: body, Path: file, Provider: d.Provider, Level: d.Level}
			if t.Description == "" {
				first, _, _ := strings.Cut(body, "\n")
				t.Description = strings.TrimSpace(strings.TrimLeft(first, "# "))
				if len(t.Description) > 80 {
					t.Description = t.Description[:77] + "..."
				}
			}
			if prev := seen[t.Name]; prev != nil {
				warns = append(warns, fmt.Errorf("template %q in %s is shadowed by %s: %w", t.Name, file, prev.Path, config.ErrShadowed))
				continue
			}
			seen[t.Name] = t
			set.list = append(set.list, t)
		}
	}
	return set, warns
}

// ExtensionID is the template's id in the disabledExtensions setting:
// "slash-command:<name>" for a file of a commands/ directory,
// "prompt:<name>" otherwise, as omp names them.
func (t *Template) ExtensionID() string {
	if filepath.Base(filepath.Dir(t.Path)) == "commands" {
		return "slash-command:" + t.Name
	}
	return "prompt:" + t.Name
}

// Without returns the set less the templates drop reports.
func (s *Set) Without(drop func(*Template) bool) *Set {
	out := &Set{}
	for _, t := range s.List() {
		if !drop(t) {
			out.list = append(out.list, t)
		}
	}
	return out
}

// List returns the templates in precedence order.
func (s *Set) List() []*Template {
	if s == nil {
		return nil
	}
	return append([]*Template(nil), s.list...)
}

// Get returns the template of a name.
func (s *Set) Get(name string) (*Template, bool) {
	if s == nil {
		return nil, false
	}
	for _, t := range s.list {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// Expand expands text when it is "/name args" for a known template. ok is
// false for any other text (which is sent as typed).
func (s *Set) Expand(text string) (expanded string, t *Template, ok bool) {
	name, args, found := ParseCommand(text)
	if !found {
		return "", nil, false
	}
	t, ok = s.Get(name)
	if !ok {
		return "", nil, false
	}
	return Substitute(t.Content, SplitArgs(args)), t, true
}

// ParseCommand splits "/name rest" into name and rest; found is false when
// text does not start with a slash command.
func ParseCommand(text string) (name, rest string, found bool) {
	t := strings.TrimLeft(text, " \t")
	if !strings.HasPrefix(t, "/") {
		return "", "", false
	}
	t = t[1:]
	end := strings.IndexAny(t, " \t\n")
	if end < 0 {
		end = len(t)
	}
	name = t[:end]
	if name == "" {
		return "", "", false
	}
	return name, strings.TrimSpace(t[end:]), true
}

// SplitArgs splits an argument string like a shell: blanks separate
// words, single and double quotes group them (a backslash escapes the
// next character outside single quotes).
func SplitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			if r == '"' {
				quote = 0
			} else if r == '\\' && i+1 < len(rs) && (rs[i+1] == '"' || rs[i+1] == '\\') {
				i++
				cur.WriteRune(rs[i])
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote = r
			inWord = true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			inWord = true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// placeholder finds the argument placeholders of a template.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS|\$@|\$(\d)`) })

// Substitute fills a template's placeholders with args (see the package
// comment). A template without placeholders gets the arguments appended
// after a blank line.
func Substitute(content string, args []string) string {
	if !placeholder().MatchString(content) {
		if len(args) == 0 {
			return content
		}
		return strings.TrimRight(content, "\n") + "\n\n" + strings.Join(args, " ")
	}
	return placeholder().ReplaceAllStringFunc(content, func(m string) string {
		g := placeholder().FindStringSubmatch(m)
		switch {
		case g[3] != "":
			n, _ := strconv.Atoi(g[3])
			if n >= 1 && n <= len(args) {
				return args[n-1]
			}
			return ""
		case g[1] != "":
			from, _ := strconv.Atoi(g[1])
			from = max(from, 1) - 1
			if from >= len(args) {
				return ""
			}
			rest := args[from:]
			if g[2] != "" {
				l, _ := strconv.Atoi(g[2])
				rest = rest[:min(l, len(rest))]
			}
			return strings.Join(rest, " ")
		}
		return strings.Join(args, " ")
	})
}
