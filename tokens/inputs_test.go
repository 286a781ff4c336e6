package tokens

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// countInputs runs CountInputs with the o200k_base encoding and returns
// the report, the warnings and whether every input was counted.
func countInputs(t *testing.T, paths []string, o InputOptions) (Report, []string, bool) {
	t.Helper()
	enc, err := Get(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	o.Encoding = enc
	var warnings []string
	o.Warn = func(msg string) { warnings = append(warnings, msg) }
	r, all, err := CountInputs(context.Background(), paths, o)
	if err != nil {
		t.Fatal(err)
	}
	return r, warnings, all
}

// Files and standard input are counted in order; one that cannot be read
// is told to Warn, left out and makes all false; the totals add up.
func TestCountInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(a, []byte("hello world"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	r, warnings, all := countInputs(t, []string{a, "-", missing, dir}, InputOptions{Stdin: strings.NewReader("hello")})
	if all || len(warnings) != 2 || warnings[0] != missing+": no such file or directory" ||
		warnings[1] != dir+": is a directory; give files (e.g. with gopi find)" {
		t.Fatalf("all %v, warnings %q", all, warnings)
	}
	want := []FileCount{{Path: a, Bytes: 11, Tokens: 2}, {Path: "-", Bytes: 5, Tokens: 1}}
	if len(r.Files) != 2 || r.Files[0] != want[0] || r.Files[1] != want[1] || r.Bytes != 16 || r.Tokens != 3 || r.Encoding != O200kBase {
		t.Fatalf("report %+v", r)
	}
	// No path is standard input; Estimate counts a small file whole.
	r, _, all = countInputs(t, nil, InputOptions{Stdin: strings.NewReader("hello world"), Estimate: true})
	if !all || len(r.Files) != 1 || r.Files[0].Path != "-" || r.Tokens != 2 {
		t.Fatalf("stdin: %+v", r)
	}
	r, _, _ = countInputs(t, []string{a}, InputOptions{Estimate: true})
	if r.Tokens != 2 {
		t.Fatalf("estimate of a small file: %+v", r)
	}
}

// A special file is read up to SpecialCap, with a note.
func TestCountInputsSpecialFileCapped(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	r, warnings, all := countInputs(t, []string{"/dev/zero"}, InputOptions{SpecialCap: 1 << 20})
	if !all || r.Bytes != 1<<20 || len(warnings) != 1 ||
		warnings[0] != "/dev/zero is not a regular file (or reports no size): counted its first 1 MiB only" {
		t.Fatalf("report %+v, warnings %q", r, warnings)
	}
}

// A model's ratio scales the counts, and the report says so.
func TestCountInputsScaledReport(t *testing.T) {
	t.Parallel()
	how := ForModel("claude-sonnet-4-5")
	r, _, _ := countInputs(t, []string{"-", "-"}, InputOptions{Stdin: strings.NewReader("hello world"), Rule: how, Model: "claude-sonnet-4-5"})
	var text, js bytes.Buffer
	r.WriteText(&text)
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	// The second "-" finds standard input drained.
	wantText := "3 -\n0 -\n3 total\n(estimate for claude-sonnet-4-5: o200k_base count × 1.2)\n"
	wantJSON := `{"encoding":"o200k_base","model":"claude-sonnet-4-5","ratio":1.2,"files":[{"path":"-","bytes":11,"tokens":3},{"path":"-","bytes":0,"tokens":0}],"bytes":11,"tokens":3}` + "\n"
	if text.String() != wantText || js.String() != wantJSON {
		t.Fatalf("text:\n%s\njson:\n%s", text.String(), js.String())
	}
}

// A context that ends stops the count with its error.
func TestCountInputsCanceled(t *testing.T) {
	t.Parallel()
	enc, err := Get(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := CountInputs(ctx, []string{"-"}, InputOptions{Encoding: enc, Stdin: strings.NewReader("x")}); err != context.Canceled {
		t.Fatalf("err %v", err)
	}
}

// Many inputs counted at once keep their order in the report and in the
// warnings, whichever finishes first; standard input named twice is read
// by the first "-" only, as when counted one after another.
func TestCountInputsInParallelKeepsOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var paths []string
	var want []FileCount
	var wantWarn []string
	e := mustGet(t, O200kBase)
	for i := 0; i < 40; i++ {
		p := filepath.Join(dir, strings.Repeat("f", 1+i%7)+string(rune('a'+i%26))+".txt")
		text := strings.Repeat("word\nline "+p+"\n", 1+(i*397)%3000)
		if i%9 == 4 {
			p = filepath.Join(dir, "missing", p)
			paths = append(paths, p)
			wantWarn = append(wantWarn, p+": no such file or directory")
			continue
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		want = append(want, FileCount{Path: p, Bytes: len(text), Tokens: e.Count(text)})
		if i == 10 {
			paths = append(paths, "-", "-")
			want = append(want, FileCount{Path: "-", Bytes: 11, Tokens: 2}, FileCount{Path: "-"})
		}
	}
	for _, workers := range []int{1, 3, 8} {
		r, warnings, all := countInputs(t, paths, InputOptions{Stdin: strings.NewReader("hello world"), Workers: workers})
		if all || strings.Join(warnings, "\n") != strings.Join(wantWarn, "\n") {
			t.Fatalf("workers %d: all %v, warnings %q", workers, all, warnings)
		}
		if len(r.Files) != len(want) {
			t.Fatalf("workers %d: %d files, want %d", workers, len(r.Files), len(want))
		}
		for i := range want {
			if r.Files[i] != want[i] {
				t.Fatalf("workers %d: file %d %+v, want %+v", workers, i, r.Files[i], want[i])
			}
		}
	}
}
