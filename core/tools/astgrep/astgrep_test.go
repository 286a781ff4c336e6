package astgrep

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	native "github.com/gopi-agent/gopi/native/astgrep"
)

func setup(t *testing.T, files map[string]string, hashlines bool) *tool.Env {
	t.Helper()
	if !native.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	env.EditEnabled = hashlines
	return env
}

func call(t *testing.T, env *tool.Env, args string) *tool.Result {
	t.Helper()
	res, err := tool.Run(context.Background(), New(env), json.RawMessage(args), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestGroupedRowsAndMeta(t *testing.T) {
	t.Parallel()
	env := setup(t, map[string]string{
		"src/a.ts": "const x = 1;\nconsole.log(x,\n  \"two\");\n",
		"src/b.ts": "console.log()\n",
		"src/c.ts": "let y = (;\nconsole.log(y)\n",
	}, false)
	res := call(t, env, `{"pat":"console.log($$$ARGS)","paths":["src"]}`)
	want := strings.Join([]string{
		"# src/a.ts",
		"*2|console.log(x,",
		" 3|  \"two\");",
		"meta: ARGS=x, \"two\"",
		"",
		"# src/b.ts",
		"*1|console.log()",
		"meta: ARGS=",
		"",
		"# src/c.ts",
		"*2|console.log(y)",
		"meta: ARGS=y",
		"",
		"Parse issues:",
		"- src/c.ts: syntax error at line 1, column 7",
	}, "\n")
	if res.IsError || res.FirstText() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", res.FirstText(), want)
	}
	d := res.Details.(*Details)
	if d.MatchCount != 3 || d.FileCount != 3 || d.FilesSearched != 3 || d.ScopePath != "src" || d.FileMatches["src/a.ts"] != 1 {
		t.Fatalf("details %+v", d)
	}
}

func TestHashlineRowsSingleFile(t *testing.T) {
	t.Parallel()
	env := setup(t, map[string]string{"m.py": "import os\nprint(os.sep)\n"}, true)
	res := call(t, env, `{"pat":"print($A)","paths":["m.py"]}`)
	want := "*" + hashline.Anchor(2, "print(os.sep)") + "|print(os.sep)\nmeta: A=os.sep"
	if res.FirstText() != want {
		t.Fatalf("got %q want %q", res.FirstText(), want)
	}
}

func TestLimitSkipAndNoMatch(t *testing.T) {
	t.Parallel()
	env := setup(t, map[string]string{"m.py": strings.Repeat("f(1)\n", 60), "bad.py": "g(\n"}, false)
	res := call(t, env, `{"pat":"f($A)","paths":["."]}`)
	if !strings.Contains(res.FirstText(), "meta: A=1\n\n"+LimitReached+"\n\nParse issues:\n- bad.py: ") || strings.Count(res.FirstText(), "*") != 50 {
		t.Fatalf("limit: %s", res.FirstText())
	}
	res = call(t, env, `{"pat":"f($A)","paths":["m.py"],"skip":55.7}`)
	if strings.Count(res.FirstText(), "*") != 5 || !strings.HasPrefix(res.FirstText(), "*56|") {
		t.Fatalf("skip: %s", res.FirstText())
	}
	if got := call(t, env, `{"pat":"h($A)","paths":["m.py"]}`).FirstText(); got != NoMatches {
		t.Fatalf("no match: %q", got)
	}
	if got := call(t, env, `{"pat":"g($A)","paths":["bad.py"]}`).FirstText(); !strings.HasPrefix(got, NoMatchesWithIssues+"\nParse issues:\n- bad.py: ") {
		t.Fatalf("no match with issues: %q", got)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	env := setup(t, map[string]string{"m.py": "x\n"}, false)
	for args, want := range map[string]string{
		`{"pat":"  ","paths":["m.py"]}`:              "Pattern must not be empty",
		`{"pat":"f($A)","paths":["m.py"],"skip":-1}`: "Skip must be a non-negative number",
		`{"pat":"f($A)","paths":["nope.py"]}`:        "Path not found: nope.py",
		`{"pat":"f($A)","paths":[""]}`:               "Path entries must not be empty",
		`{"pat":"f($A)","paths":["artifact://3"]}`:   "Internal URLs",
	} {
		res := call(t, env, args)
		if !res.IsError || !strings.Contains(res.FirstText(), want) {
			t.Errorf("%s: %q", args, res.FirstText())
		}
	}
}

func TestUnsupportedFilesAreNamed(t *testing.T) {
	t.Parallel()
	env := setup(t, map[string]string{"m.py": "f(1)\n", "a.toml": "x = 1\n", "b.toml": "y = 2\n"}, false)
	note := "2 toml files not searched: no toml grammar is built in"
	if got := call(t, env, `{"pat":"h($A)","paths":["."]}`).FirstText(); got != NoMatches+"\n\n"+note {
		t.Fatalf("no match: %q", got)
	}
	if got := call(t, env, `{"pat":"f($A)","paths":["."]}`).FirstText(); got != "# m.py\n*1|f(1)\nmeta: A=1\n\n"+note {
		t.Fatalf("match: %q", got)
	}
	if got := call(t, env, `{"pat":"h($A)","paths":["m.py"]}`).FirstText(); got != NoMatches {
		t.Fatalf("nothing left out: %q", got)
	}
}

func TestSkipBeyondIntRange(t *testing.T) {
	t.Parallel()
	env := setup(t, map[string]string{"m.py": "f(1)\nf(2)\n"}, false)
	for _, skip := range []string{"1e300", "9007199254740992", "1.8446744073709552e19"} {
		res := call(t, env, `{"pat":"f($A)","paths":["m.py"],"skip":`+skip+`}`)
		if !res.IsError || res.FirstText() != "Skip must be a non-negative number no larger than 9007199254740991" {
			t.Errorf("skip %s: %q", skip, res.FirstText())
		}
	}
	if res := call(t, env, `{"pat":"f($A)","paths":["m.py"],"skip":9007199254740991}`); res.IsError || res.FirstText() != NoMatches {
		t.Errorf("largest skip: %q", res.FirstText())
	}
}
