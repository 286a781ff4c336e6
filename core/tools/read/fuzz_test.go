package read

import (
	"strings"
	"testing"
)

// FuzzSplitSelector checks that selector parsing never panics, that a
// parsed selector is valid, and that path+canonical selector parses back
// to the same split.
func FuzzSplitSelector(f *testing.F) {
	for _, s := range []string{"a.go", "a.go:5", "a.go:L5-L9", "a.go:5+3", "a.go:raw", "a.go:5-9:raw", "a.go:raw:5-9",
		"a:0", "a:3+0", "a:9-3", "a.zip:dir/f:50-60", "x:y", ":5", "a:99999999999999999", "a:1:2:3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		path, sel, err := SplitSelector(in)
		if err != nil {
			if !strings.Contains(err.Error(), ":") {
				t.Fatalf("error without a selector hint: %v", err)
			}
			return
		}
		if sel.Start < 0 || sel.End < 0 || (sel.End > 0 && sel.End < sel.Start) || (sel.End > 0 && sel.Start == 0) {
			t.Fatalf("invalid selector %+v from %q", sel, in)
		}
		if !strings.HasPrefix(in, path) {
			t.Fatalf("path %q is not a prefix of %q", path, in)
		}
		p2, sel2, err := SplitSelector(path + sel.String())
		if err != nil || p2 != path || sel2 != sel {
			t.Fatalf("re-split of %q: %q %+v %v; want %q %+v", path+sel.String(), p2, sel2, err, path, sel)
		}
	})
}
