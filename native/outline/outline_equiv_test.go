//go:build cgo

package outline

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// equivalenceTrees are real trees the native outline is compared on with
// the go-tree-sitter reference; missing ones are skipped.
func equivalenceTrees() []string {
	home, _ := os.UserHomeDir()
	return []string{
		"/usr/lib/python3.11",
		filepath.Join(home, ".cache/omp-reference/node_modules"),
		filepath.Join(home, ".cargo/registry/src"),
	}
}

// TestBodiesMatchReference runs the native outline and the go-tree-sitter
// reference over real source trees (up to perTree files of each language
// in each) and requires the same spans, or the same syntax-error verdict.
// The two use different versions of the grammars, so where one of them
// sees a syntax error and the other does not, the file is counted and
// logged, and the test fails only if that is more than one file in fifty.
func TestBodiesMatchReference(t *testing.T) {
	perTree := 200
	if testing.Short() {
		perTree = 60
	}
	ctx := context.Background()
	compared, verdicts := 0, 0
	for _, root := range equivalenceTrees() {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		seen := map[string]int{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			lang := LanguageOf(p)
			if lang == "" || lang == "go" || seen[lang] >= perTree {
				return nil
			}
			info, err := d.Info()
			if err != nil || info.Size() > 256<<10 || !info.Mode().IsRegular() {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			seen[lang]++
			for _, min := range []int{1, 4} {
				want, werr := referenceBodies(ctx, lang, src, min)
				got, gerr := Bodies(ctx, lang, src, min)
				compared++
				if errors.Is(werr, ErrSyntax) != errors.Is(gerr, ErrSyntax) {
					verdicts++
					t.Logf("%s: syntax verdicts differ (reference %v, native %v)", p, werr, gerr)
					break
				}
				if werr != nil || gerr != nil {
					if !errors.Is(werr, ErrSyntax) && !errors.Is(gerr, ErrUnsupported) {
						t.Fatalf("%s: reference %v, native %v", p, werr, gerr)
					}
					continue
				}
				if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Fatalf("%s (min %d): native %v, reference %v", p, min, got, want)
				}
			}
			return nil
		})
	}
	if compared == 0 {
		t.Skip("no source tree to compare on")
	}
	if verdicts*50 > compared {
		t.Fatalf("syntax verdicts differ on %d of %d comparisons", verdicts, compared)
	}
	t.Logf("%d comparisons, %d with different syntax verdicts", compared, verdicts)
}
