package ast

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/golden"
	"golang.org/x/tools/txtar"
)

// confCase is one conformance case: a source file, a pattern for a
// language, the expected matches and, for rewrites, the expected output.
//
// Header lines (the txtar comment): "lang: L", "pattern: P" (\n for a
// newline), optional "rewrite: R" (may be empty: delete) and optional
// "cli: differs: WHY" for an intentional difference from the ast-grep CLI.
type confCase struct {
	file            string
	ar              *golden.Archive
	lang, pattern   string
	rewrite         string
	hasRewrite      bool
	differs         string
	srcName         string
	src             []byte
	matches, output *txtar.File
}

func loadConformance(t *testing.T) []*confCase {
	t.Helper()
	files, _ := filepath.Glob("testdata/conformance/*.txtar")
	if len(files) == 0 {
		t.Fatal("no conformance cases")
	}
	var out []*confCase
	for _, f := range files {
		ar := golden.ReadArchive(t, f)
		c := &confCase{file: f, ar: ar}
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			v = strings.TrimPrefix(v, " ")
			switch k {
			case "lang":
				c.lang = v
			case "pattern":
				c.pattern = strings.ReplaceAll(v, `\n`, "\n")
			case "rewrite":
				c.rewrite, c.hasRewrite = strings.ReplaceAll(v, `\n`, "\n"), true
			case "cli":
				c.differs = strings.TrimPrefix(v, "differs: ")
			}
		}
		for i := range ar.Files {
			af := &ar.Files[i]
			switch {
			case af.Name == "matches":
				c.matches = af
			case af.Name == "output":
				c.output = af
			case strings.HasPrefix(af.Name, "src."):
				c.srcName, c.src = af.Name, af.Data
			}
		}
		if c.lang == "" || c.pattern == "" || c.src == nil || c.matches == nil || (c.hasRewrite && c.output == nil) {
			t.Fatalf("%s: incomplete case", f)
		}
		out = append(out, c)
	}
	return out
}

// renderMatches prints matches as "L:C-L:C|first line of the text".
func renderMatches(ms []Match) string {
	var b strings.Builder
	for _, m := range ms {
		first, _, _ := strings.Cut(m.Text, "\n")
		fmt.Fprintf(&b, "%d:%d-%d:%d|%s\n", m.Start.Line+1, m.Start.Column+1, m.End.Line+1, m.End.Column+1, first)
	}
	return b.String()
}

// TestConformance runs every case through the engine, with and without
// the literal prefilter (which must never change a result), and for
// rewrites through Edit.
func TestConformance(t *testing.T) {
	t.Parallel()
	requireNative(t)
	langs := map[string]bool{}
	for _, c := range loadConformance(t) {
		langs[c.lang] = true
		t.Run(strings.TrimSuffix(filepath.Base(c.file), ".txtar"), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.srcName)
			if err := os.WriteFile(path, c.src, 0o644); err != nil {
				t.Fatal(err)
			}
			var got [2]string
			for i, noPre := range []bool{false, true} {
				res, err := Search(context.Background(), SearchRequest{Scope: Scope{Paths: []string{path}}, Patterns: []string{c.pattern}, Lang: c.lang, NoPrefilter: noPre})
				if err != nil {
					t.Fatal(err)
				}
				got[i] = renderMatches(res.Matches)
			}
			if got[0] != got[1] {
				t.Fatalf("prefilter changed the result:\n%s\nvs\n%s", got[0], got[1])
			}
			var out string
			if c.hasRewrite {
				if _, err := Edit(context.Background(), EditRequest{Scope: Scope{Paths: []string{path}}, Lang: c.lang, Rules: []Rewrite{{Pattern: c.pattern, Out: c.rewrite}}}); err != nil {
					t.Fatal(err)
				}
				b, _ := os.ReadFile(path)
				out = string(b)
			}
			c.ar.CheckFile(t, c.matches, got[0])
			if c.hasRewrite {
				c.ar.CheckFile(t, c.output, out)
			}
			c.ar.Save(t)
		})
	}
	if len(langs) < 12 {
		t.Errorf("conformance covers %d languages, want at least 12", len(langs))
	}
}

// TestConformanceCLI compares every case with the ast-grep CLI named by
// GOPI_ASTGREP_CLI (scripts/conformance-astgrep.sh sets it) and prints the
// agreement rate and every difference. Cases marked "cli: differs" must
// differ (their reason is printed); any other difference fails.
func TestConformanceCLI(t *testing.T) {
	t.Parallel()
	cli := os.Getenv("GOPI_ASTGREP_CLI")
	if cli == "" {
		t.Skip("GOPI_ASTGREP_CLI not set")
	}
	requireNative(t)
	cases := loadConformance(t)
	agree, intentional := 0, 0
	var report []string
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c.file), ".txtar")
		dir := t.TempDir()
		path := filepath.Join(dir, c.srcName)
		os.WriteFile(path, c.src, 0o644)
		res, err := Search(context.Background(), SearchRequest{Scope: Scope{Paths: []string{path}}, Patterns: []string{c.pattern}, Lang: c.lang})
		if err != nil {
			t.Fatal(err)
		}
		ours := map[string]bool{}
		for _, m := range res.Matches {
			ours[fmt.Sprintf("%d-%d", m.Start.Offset, m.End.Offset)] = true
		}
		theirs, err := cliMatches(cli, c.lang, c.pattern, path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		diff := setDiff(ours, theirs)
		if c.hasRewrite && diff == "" {
			if d := rewriteDiff(t, cli, c, dir); d != "" {
				diff = d
			}
		}
		switch {
		case diff == "" && c.differs == "":
			agree++
		case diff != "" && c.differs != "":
			intentional++
			report = append(report, fmt.Sprintf("%s: intentional difference (%s): %s", name, c.differs, diff))
		case diff == "":
			report = append(report, fmt.Sprintf("%s: marked as differing but agrees with the CLI", name))
			t.Errorf("%s: marked as differing but agrees", name)
		default:
			report = append(report, fmt.Sprintf("%s: DIFFERS: %s", name, diff))
			t.Errorf("%s differs from the CLI: %s", name, diff)
		}
	}
	for _, r := range report {
		fmt.Println(r)
	}
	fmt.Printf("conformance: %d cases, %d identical, %d intentional differences, agreement %.1f%% (%.1f%% of cases without a documented difference)\n",
		len(cases), agree, intentional, 100*float64(agree)/float64(len(cases)), 100*float64(agree)/float64(max(len(cases)-intentional, 1)))
}

// cliMatches runs the CLI and returns its match byte ranges.
func cliMatches(cli, lang, pattern, path string) (map[string]bool, error) {
	cmd := exec.Command(cli, "run", "--lang", lang, "--pattern", pattern, "--json=stream", path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && stdout.Len() == 0 && stderr.Len() > 0 {
		return nil, fmt.Errorf("%v: %s", err, stderr.String())
	}
	out := map[string]bool{}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var m struct {
			Range struct {
				ByteOffset struct{ Start, End int } `json:"byteOffset"`
			} `json:"range"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			return nil, err
		}
		out[fmt.Sprintf("%d-%d", m.Range.ByteOffset.Start, m.Range.ByteOffset.End)] = true
	}
	return out, nil
}

func setDiff(ours, theirs map[string]bool) string {
	var only []string
	for k := range ours {
		if !theirs[k] {
			only = append(only, "gopi-only "+k)
		}
	}
	for k := range theirs {
		if !ours[k] {
			only = append(only, "cli-only "+k)
		}
	}
	sort.Strings(only)
	return strings.Join(only, ", ")
}

// rewriteDiff applies the rewrite with the CLI to a copy and compares it
// with the expected output.
func rewriteDiff(t *testing.T, cli string, c *confCase, dir string) string {
	cp := filepath.Join(dir, "cli-"+c.srcName)
	os.WriteFile(cp, c.src, 0o644)
	cmd := exec.Command(cli, "run", "--lang", c.lang, "--pattern", c.pattern, "--rewrite", c.rewrite, "--update-all", cp)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Sprintf("cli rewrite failed: %v %s", err, out)
	}
	got, _ := os.ReadFile(cp)
	if string(got) != string(c.output.Data) {
		return fmt.Sprintf("rewrite output differs: cli %q, gopi %q", got, c.output.Data)
	}
	return ""
}
