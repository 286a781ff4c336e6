package fscache

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// This file finds the ignore files that live outside the walked tree: the
// ones in the scan root's ancestors, the repository's info/exclude and the
// user's global excludes file.

// globalExcludes loads the user's global excludes file at most once per walk,
// and only if the walk meets a git repository.
type globalExcludes struct {
	path string // the file; "" for none
	once sync.Once
	rs   *ruleSet
}

func (g *globalExcludes) rules() *ruleSet {
	g.once.Do(func() {
		if g.path != "" {
			g.rs = loadRules(g.path)
		}
	})
	return g.rs
}

// GlobalExcludesPath is where git looks for the global excludes file, given
// the home directory and $XDG_CONFIG_HOME (either may be ""):
// core.excludesFile from the XDG git config or ~/.gitconfig (the latter
// wins, as git reads it last), else XDG_CONFIG_HOME/git/ignore, else
// ~/.config/git/ignore. It returns "" when neither directory is known. The
// result goes into Policy.ExcludesFile; the package itself never reads the
// environment.
func GlobalExcludesPath(home, xdgConfigHome string) string {
	xdgGit := ""
	if x := xdgConfigHome; x != "" {
		xdgGit = filepath.Join(x, "git")
	} else if home != "" {
		xdgGit = filepath.Join(home, ".config", "git")
	}
	var path string
	var configs []string
	if xdgGit != "" {
		configs = append(configs, filepath.Join(xdgGit, "config"))
	}
	if home != "" {
		configs = append(configs, filepath.Join(home, ".gitconfig"))
	}
	for _, cfg := range configs {
		if v, ok := configExcludesFile(cfg); ok {
			path = v
		}
	}
	if path == "" {
		if xdgGit == "" {
			return ""
		}
		return filepath.Join(xdgGit, "ignore")
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok && home != "" {
		path = filepath.Join(home, rest)
	}
	return path
}

// configExcludesFile reads core.excludesFile from one git config file. It
// understands the subset of the format that setting needs: section headers,
// case-insensitive keys, quoted values and trailing comments.
func configExcludesFile(cfg string) (string, bool) {
	data, err := os.ReadFile(cfg)
	if err != nil {
		return "", false
	}
	var value string
	found, inCore := false, false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			inCore = strings.EqualFold(strings.TrimSpace(line[1:end]), "core")
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		if !inCore {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "excludesfile") {
			continue
		}
		value, found = configValue(val), true
	}
	return value, found
}

// configValue strips quotes and a trailing comment from a config value.
func configValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// gitExcludePath returns the info/exclude file of the repository whose
// working tree root is dir. `.git` may be a directory or, for worktrees and
// submodules, a file naming the git directory.
func gitExcludePath(dir string) string {
	dotGit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return ""
	}
	gitDir := dotGit
	if !fi.IsDir() {
		data, err := os.ReadFile(dotGit)
		if err != nil {
			return ""
		}
		target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return ""
		}
		gitDir = strings.TrimSpace(target)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(dir, gitDir)
		}
		// Linked worktrees keep info/exclude in the common directory.
		if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
			c := strings.TrimSpace(string(common))
			if !filepath.IsAbs(c) {
				c = filepath.Join(gitDir, c)
			}
			gitDir = c
		}
	}
	return filepath.Join(gitDir, "info", "exclude")
}

// rootIgnoreState builds the rules that reach the scan root from above it:
// `.ignore` files in every ancestor, and — when an ancestor is a repository
// root — that repository's `.gitignore` files from its root down to the
// scan root's parent, its info/exclude and the global excludes. The root's
// own ignore files are added when its listing is read, like any directory's.
func rootIgnoreState(rootAbs string, g *globalExcludes) *ignoreState {
	st := &ignoreState{}
	var ancestors []string // nearest first
	for dir := rootAbs; ; {
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		ancestors = append(ancestors, parent)
		dir = parent
	}
	repo := -1
	for i, a := range ancestors {
		if _, err := os.Lstat(filepath.Join(a, ".git")); err == nil {
			repo = i
			break
		}
	}
	for i := len(ancestors) - 1; i >= 0; i-- {
		a := ancestors[i]
		rootRel := relBelow(a, rootAbs)
		if rs := loadRules(filepath.Join(a, ".ignore")); rs != nil {
			st.dotIgnore = append(st.dotIgnore, bindAbove(rs, rootRel))
		}
		if repo < 0 || i > repo {
			continue
		}
		if i == repo {
			st.inRepo = true
			if rs := loadRules(gitExcludePath(a)); rs != nil {
				st.exclude = bindAbove(rs, rootRel)
			}
			if rs := g.rules(); rs != nil {
				st.global = bindAbove(rs, rootRel)
			}
		}
		if rs := loadRules(filepath.Join(a, ".gitignore")); rs != nil {
			st.gitIgnore = append(st.gitIgnore, bindAbove(rs, rootRel))
		}
	}
	return st
}

// relBelow returns path relative to its ancestor dir, slash-separated.
func relBelow(dir, path string) string {
	rel := strings.TrimPrefix(path[len(dir):], string(filepath.Separator))
	return filepath.ToSlash(rel)
}
