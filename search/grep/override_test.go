package grep

import (
	"slices"
	"testing"
)

// The expectations were checked against ripgrep 13's -g on the same tree.
func TestOverrides(t *testing.T) {
	t.Parallel()
	files := []string{"a.go", "src/a.go", "src/deep/b.go", "x/src/a.go", "x/y/src/c.go", "w/src"}
	for _, tt := range []struct {
		globs     []string
		base, cwd string
		want      []string
	}{
		{[]string{"src/*.go"}, "", "", []string{"src/a.go"}},
		{[]string{"/src/*.go"}, "", "", []string{"src/a.go"}},
		{[]string{"**/src/*.go"}, "", "", []string{"src/a.go", "x/src/a.go", "x/y/src/c.go"}},
		{[]string{"src/**"}, "", "", []string{"src/a.go", "src/deep/b.go"}},
		{[]string{"src"}, "", "", []string{"w/src"}},
		{[]string{"src/"}, "", "", nil},
		{[]string{"!src"}, "", "", []string{"a.go"}},
		{[]string{"!src/"}, "", "", []string{"a.go", "w/src"}},
		{[]string{"!src/*.go"}, "", "", []string{"a.go", "src/deep/b.go", "x/src/a.go", "x/y/src/c.go", "w/src"}},
		{[]string{"!a.go", "*.go"}, "", "", []string{"a.go", "src/a.go", "src/deep/b.go", "x/src/a.go", "x/y/src/c.go"}},
		{[]string{"*.go", "!a.go"}, "", "", []string{"src/deep/b.go", "x/y/src/c.go"}},
		{[]string{"!deep", "src/**"}, "", "", []string{"src/a.go", "src/deep/b.go"}},
		{[]string{"src/**", "!deep"}, "", "", []string{"src/a.go"}},
		// Searching under x: paths are matched as x/...
		{[]string{"src/*.go"}, "x", "", nil},
		{[]string{"x/src/*.go"}, "x", "", []string{"src/a.go"}},
		{[]string{"!src"}, "x", "", []string{"a.go"}},
		// The root itself is never matched: searching src with !src.
		{[]string{"!src"}, "src", "", []string{"a.go"}},
		// Outside the working directory an anchored glob cannot match.
		{[]string{"src/*.go"}, "..", "", nil},
		{[]string{"**/src/*.go"}, "..", "", []string{"src/a.go", "x/src/a.go", "x/y/src/c.go"}},
		// Absolute paths inside the working directory are cut to it.
		{[]string{"src/*.go"}, "/w", "/w/x", []string{"x/src/a.go"}},
		{[]string{"!x"}, "/w", "/w/x", []string{"a.go", "src/a.go", "src/deep/b.go", "x/src/a.go", "x/y/src/c.go", "w/src"}},
		{[]string{"src/*.go"}, "/w/x", "/w/x", []string{"src/a.go"}},
		{[]string{"src/*.go"}, "/w/x", "/other", nil},
	} {
		o, err := compileOverrides(tt.globs, nil, tt.base, tt.cwd)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			if o.keepFile(f) {
				got = append(got, f)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q base %q cwd %q: %q, want %q", tt.globs, tt.base, tt.cwd, got, tt.want)
		}
	}
	if o, err := compileOverrides([]string{"!", ""}, nil, "", ""); o != nil || err != nil {
		t.Errorf("empty globs: %v %v", o, err)
	}
	if _, err := compileOverrides([]string{"a["}, nil, "", ""); err == nil {
		t.Error("bad glob accepted")
	}
}
