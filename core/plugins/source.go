package plugins

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// ghShorthand is GitHub's owner/repo form of a marketplace source.
var ghShorthand = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$`)

// ClassifySource says what kind of marketplace source s is: a local
// directory (./, ../, ~/, / or an existing directory), a direct catalog
// URL (http(s) ending in .json), a Git URL (http(s), git@, ssh://,
// git://, file://) or GitHub's owner/repo.
func ClassifySource(s string) (string, error) {
	switch {
	case s == "":
		return "", fmt.Errorf("no marketplace source given: use owner/repo, a Git URL, a catalog URL or a directory")
	case strings.HasPrefix(s, "./"), strings.HasPrefix(s, "../"), strings.HasPrefix(s, "~/"), strings.HasPrefix(s, "/"), s == ".", s == "~":
		return TypeLocal, nil
	case (strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")) && strings.HasSuffix(strings.ToLower(s), ".json"):
		return TypeURL, nil
	case strings.HasPrefix(s, "https://"), strings.HasPrefix(s, "http://"), strings.HasPrefix(s, "git@"),
		strings.HasPrefix(s, "ssh://"), strings.HasPrefix(s, "git://"), strings.HasPrefix(s, "file://"):
		return TypeGit, nil
	case ghShorthand.MatchString(s):
		if fi, err := os.Stat(s); err == nil && fi.IsDir() {
			return TypeLocal, nil
		}
		return TypeGitHub, nil
	}
	if fi, err := os.Stat(s); err == nil && fi.IsDir() {
		return TypeLocal, nil
	}
	return "", fmt.Errorf("cannot tell what marketplace source %q is: use owner/repo, a Git URL (https://…/x.git, git@…), a catalog URL (https://…/marketplace.json) or a directory (./dir, ~/dir, /dir)", s)
}

// gitURL returns the URL git clones for a source of kind github or git.
func gitURL(kind, s string) string {
	if kind == TypeGitHub {
		return "https://github.com/" + s + ".git"
	}
	return s
}

// expandHome expands a leading "~" and makes p absolute against cwd.
func expandHome(p, home, cwd string) string {
	switch {
	case p == "~":
		p = home
	case strings.HasPrefix(p, "~/"):
		p = filepath.Join(home, p[2:])
	case !filepath.IsAbs(p):
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

// maxCatalogSize bounds a catalog file.
const maxCatalogSize = 8 << 20

// readCatalogFile reads and parses the catalog of a marketplace root.
func readCatalogFile(root string) (*Catalog, error) {
	file := filepath.Join(root, filepath.FromSlash(CatalogPath))
	if fi, err := os.Stat(file); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", file, fi.Mode().Type())
	}
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("%s has no catalog: a marketplace needs %s", root, CatalogPath)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCatalogSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	if len(data) > maxCatalogSize {
		return nil, fmt.Errorf("marketplace catalog %s is larger than %d MiB", file, maxCatalogSize>>20)
	}
	return ParseCatalog(data, file)
}

// fetchCatalogURL downloads a catalog from a direct URL.
func fetchCatalogURL(ctx context.Context, client *http.Client, url string, timeout time.Duration) (*Catalog, error) {
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("catalog URL %s: %w", url, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("fetching %s did not finish within %s", url, timeout)
		}
		return nil, fmt.Errorf("fetching %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: HTTP %s", url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxCatalogSize+1))
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", url, err)
	}
	if len(data) > maxCatalogSize {
		return nil, fmt.Errorf("marketplace catalog %s is larger than %d MiB", url, maxCatalogSize>>20)
	}
	return ParseCatalog(data, url)
}
