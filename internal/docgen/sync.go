package docgen

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

const (
	beginPrefix = "<!-- BEGIN generated "
	beginSuffix = ": edit the code, then run make docs -->"
	endPrefix   = "<!-- END generated "
	endSuffix   = " -->"
)

// Begin and End return the marker lines around the generated section name.
func Begin(name string) string { return beginPrefix + name + beginSuffix }

// End returns the marker line that closes the generated section name.
func End(name string) string { return endPrefix + name + endSuffix }

// Splice returns doc with the body of every generated section replaced by
// sections[name], and the names it found. A marker without its end, a
// name not in sections, or a name found twice is an error naming the
// line.
func Splice(doc string, sections map[string]string) (string, []string, error) {
	var out strings.Builder
	var names []string
	lines := strings.SplitAfter(doc, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		out.WriteString(line)
		trimmed := strings.TrimRight(line, "\n")
		if !strings.HasPrefix(trimmed, beginPrefix) {
			if strings.HasPrefix(trimmed, endPrefix) {
				return "", nil, fmt.Errorf("line %d: %q without its BEGIN marker", i+1, trimmed)
			}
			continue
		}
		name, ok := strings.CutSuffix(strings.TrimPrefix(trimmed, beginPrefix), beginSuffix)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return "", nil, fmt.Errorf("line %d: malformed marker %q (want %q)", i+1, trimmed, Begin("NAME"))
		}
		body, known := sections[name]
		if !known {
			return "", nil, fmt.Errorf("line %d: unknown generated section %q", i+1, name)
		}
		if slices.Contains(names, name) {
			return "", nil, fmt.Errorf("line %d: generated section %q appears twice", i+1, name)
		}
		names = append(names, name)
		j := i + 1
		for j < len(lines) && strings.TrimRight(lines[j], "\n") != End(name) {
			if strings.HasPrefix(lines[j], beginPrefix) {
				return "", nil, fmt.Errorf("line %d: section %q opened before %q was closed", j+1, lines[j], name)
			}
			j++
		}
		if j == len(lines) {
			return "", nil, fmt.Errorf("line %d: no %q after it", i+1, End(name))
		}
		out.WriteString(body)
		if body != "" && !strings.HasSuffix(body, "\n") {
			out.WriteString("\n")
		}
		out.WriteString(lines[j])
		i = j
	}
	return out.String(), names, nil
}

// Sync splices sections into every Markdown file under dir. It returns the
// files whose text differs from what the code generates (relative to
// dir), and rewrites them when write is set. A section with no place in
// any file, or placed in two, is an error.
func Sync(dir string, sections map[string]string, write bool) ([]string, error) {
	var stale []string
	placed := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		old, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		doc, names, err := Splice(string(old), sections)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		for _, n := range names {
			if other, dup := placed[n]; dup {
				return fmt.Errorf("generated section %q is in both %s and %s", n, other, rel)
			}
			placed[n] = rel
		}
		if bytes.Equal(old, []byte(doc)) {
			return nil
		}
		stale = append(stale, rel)
		if write {
			return os.WriteFile(path, []byte(doc), 0o644) // an existing file keeps its mode
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var missing []string
	for name := range sections {
		if _, ok := placed[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("generated sections with no place in %s: %s (add %q … %q lines)",
			dir, strings.Join(missing, ", "), Begin("NAME"), End("NAME"))
	}
	return stale, nil
}
