package read

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/search/glob"
)

// suffixTimeout bounds the workspace lookup for a unique suffix match.
const suffixTimeout = 5 * time.Second

// resolved is a local target after path resolution.
type resolved struct {
	abs       string      // absolute path read
	display   string      // path as shown to the model
	info      fs.FileInfo // stat of abs
	suffixOf  string      // the path as given, when abs came from a suffix match
	suffixHit string      // display form of the match
}

// resolvePath resolves a local read path: "~" expands, a bare "/" is the
// working directory, relative paths start there. A missing path is looked
// up as a unique path suffix inside the working directory.
func resolvePath(ctx context.Context, env *tool.Env, p string) (*resolved, error) {
	if err := env.CheckLocal(p); err != nil {
		return nil, err
	}
	var abs string
	if p == "/" {
		abs = env.Cwd
	} else {
		abs = env.Resolve(p)
	}
	info, err := os.Stat(abs)
	if err == nil {
		return &resolved{abs: abs, display: env.DisplayPath(abs), info: info}, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, tool.Errorf("Cannot read %s: %v", p, unwrapPathError(err))
	}
	matches := suffixMatches(ctx, env, p)
	switch len(matches) {
	case 1:
		abs = matches[0]
		info, err := os.Stat(abs)
		if err != nil {
			return nil, tool.Errorf("Cannot read %s: %v", p, unwrapPathError(err))
		}
		d := env.DisplayPath(abs)
		return &resolved{abs: abs, display: d, info: info, suffixOf: p, suffixHit: d}, nil
	case 0:
		return nil, tool.Errorf("Path not found: %s", p)
	}
	shown := make([]string, 0, min(len(matches), 5))
	for _, m := range matches[:min(len(matches), 5)] {
		shown = append(shown, env.DisplayPath(m))
	}
	more := ""
	if len(matches) > 5 {
		more = ", …"
	}
	return nil, tool.Errorf("Path not found: %s (%d paths end with it: %s%s; read one of them)", p, len(matches), strings.Join(shown, ", "), more)
}

// suffixMatches lists workspace paths ending in "/"+p (p relative, without
// "..", not absolute), honouring ignore files. It gives up quietly on
// timeout or error.
func suffixMatches(ctx context.Context, env *tool.Env, p string) []string {
	rel := filepath.ToSlash(strings.TrimPrefix(p, "./"))
	if rel == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~") || strings.Contains("/"+rel+"/", "/../") {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, suffixTimeout)
	defer cancel()
	res, err := glob.Find(ctx, env.Cwd, glob.Options{
		Pattern:    "**/" + escapeGlob(strings.TrimSuffix(rel, "/")),
		Hidden:     true,
		Gitignore:  true,
		Cache:      true,
		Scanner:    env.Caches.Scanner(),
		MaxResults: 50,
	})
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(res.Matches))
	for _, m := range res.Matches {
		out = append(out, filepath.Join(env.Cwd, filepath.FromSlash(m.Path))) // Root is Cwd made canonical
	}
	return out
}

// escapeGlob makes every character of s literal in a glob pattern.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
