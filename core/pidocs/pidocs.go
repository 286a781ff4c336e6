// Package pidocs serves pi:// URLs: gopi's own documentation, embedded in
// the binary, for the model to read. "pi://" lists the files,
// "pi://tools.md" reads docs/tools.md, "pi://README.md" the README.
package pidocs

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi"
	"github.com/gopi-agent/gopi/core/tool"
)

// Scheme is the URL scheme served, without "://".
const Scheme = "pi"

// Reader serves pi:// from a file system holding README.md and docs/*.md.
type Reader struct {
	fsys  fs.FS
	once  sync.Once
	names []string          // the served names, sorted
	files map[string]string // served name → path in fsys
}

// New returns a Reader over fsys (README.md and docs/*.md).
func New(fsys fs.FS) *Reader { return &Reader{fsys: fsys} }

// Embedded returns a Reader over the documentation built into gopi.
func Embedded() *Reader { return embedded() }

var embedded = sync.OnceValue(func() *Reader { return New(gopi.Docs) })

// index lists the served files once.
func (r *Reader) index() {
	r.once.Do(func() {
		r.files = map[string]string{}
		if _, err := fs.Stat(r.fsys, "README.md"); err == nil {
			r.files["README.md"] = "README.md"
		}
		_ = fs.WalkDir(r.fsys, "docs", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				r.files[strings.TrimPrefix(p, "docs/")] = p
			}
			return nil
		})
		for n := range r.files {
			r.names = append(r.names, n)
		}
		sort.Strings(r.names)
	})
}

// Names returns the documentation files served, sorted.
func (r *Reader) Names() []string {
	r.index()
	return append([]string(nil), r.names...)
}

// ReadURI returns the listing for "pi://" and a file's text for
// "pi://<name>".
func (r *Reader) ReadURI(_ context.Context, url string) (*tool.HostURIContent, error) {
	r.index()
	name, ok := strings.CutPrefix(url, Scheme+"://")
	if !ok {
		return nil, fmt.Errorf("%s is not a pi:// URL", url)
	}
	name = strings.Trim(strings.ReplaceAll(name, "\\", "/"), "/")
	if name == "" {
		return &tool.HostURIContent{Content: r.listing(), ContentType: "text/markdown", Immutable: true}, nil
	}
	clean := path.Clean(name)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return nil, fmt.Errorf("pi:// paths cannot climb out with \"..\"; read pi:// for the list of files")
	}
	p, ok := r.files[clean]
	if !ok {
		return nil, fmt.Errorf("no documentation file %s%s", name, r.suggest(clean))
	}
	b, err := fs.ReadFile(r.fsys, p)
	if err != nil {
		return nil, err
	}
	return &tool.HostURIContent{Content: string(b), ContentType: "text/markdown", Immutable: true}, nil
}

// listing is the text of "pi://".
func (r *Reader) listing() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# gopi documentation\n\n%d files; read one as pi://<name>:\n\n", len(r.names))
	for _, n := range r.names {
		fmt.Fprintf(&b, "- [%s](pi://%s)\n", n, n)
	}
	return b.String()
}

// suggest names up to five files close to a missing one.
func (r *Reader) suggest(name string) string {
	stem := strings.ToLower(strings.TrimSuffix(name, ".md"))
	var near []string
	for _, n := range r.names {
		s := strings.ToLower(strings.TrimSuffix(n, ".md"))
		if strings.Contains(s, stem) || strings.Contains(stem, s) {
			near = append(near, n)
		}
		if len(near) == 5 {
			break
		}
	}
	if len(near) == 0 {
		return "; read pi:// for the list of files"
	}
	return "; did you mean " + strings.Join(near, ", ") + "?"
}
