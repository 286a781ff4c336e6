package protocol

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// DocumentURI is a document's address as the protocol sends it; gopi's
// documents are files ("file:///abs/path", percent-encoded).
type DocumentURI string

// FileURI is the URI of the file at the absolute path p.
func FileURI(p string) DocumentURI {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path: file:///C:/x
	}
	return DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}

// Path is the file a "file:" URI names; other schemes, relative paths and
// malformed URIs are errors.
func (u DocumentURI) Path() (string, error) {
	parsed, err := url.Parse(string(u))
	if err != nil {
		return "", fmt.Errorf("not a URI: %q", string(u))
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %q", string(u))
	}
	if parsed.Host != "" && parsed.Host != "localhost" {
		return "", fmt.Errorf("file URI on another host: %q", string(u))
	}
	p := parsed.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // /C:/x on Windows
	}
	if p == "" || !filepath.IsAbs(filepath.FromSlash(p)) {
		return "", fmt.Errorf("file URI without an absolute path: %q", string(u))
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}
