package pathspec

import "testing"

func TestSplit(t *testing.T) {
	t.Parallel()
	cases := map[string][2]string{
		"src":            {"src", ""},
		"src/a.go":       {"src/a.go", ""},
		"*.go":           {".", "**/*.go"},
		"**/*.go":        {".", "**/*.go"},
		"**":             {".", "**"},
		"src/*.go":       {"src", "*.go"},
		"src/**/*.go":    {"src", "**/*.go"},
		"a/b/{x,y}/*.ts": {"a/b", "{x,y}/*.ts"},
		"/*.go":          {"/", "*.go"},
		"/abs/dir/*.md":  {"/abs/dir", "*.md"},
	}
	for in, want := range cases {
		b, g := Split(in)
		if b != want[0] || g != want[1] {
			t.Errorf("Split(%q) = %q, %q; want %q, %q", in, b, g, want[0], want[1])
		}
	}
	if Normalize(` "src\lib" `) != "src/lib" || Normalize("'x'") != "x" || Normalize(`"x`) != `"x` {
		t.Fatal("Normalize")
	}
}
