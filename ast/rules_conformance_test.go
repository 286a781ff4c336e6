package ast

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/golden"
	"golang.org/x/tools/txtar"
)

// ruleCase is one case of testdata/rules/*.txtar: an ast-grep rule file
// ("rules.yml"), source files (any other name), the findings gopi must
// report ("findings": RULE PATH L:C-L:C|first line of the text, in
// gopi's order) and, when a rule has a fix, what `scan -U` leaves in each
// file it changes ("fixed/PATH"; a file without one must not change).
type ruleCase struct {
	file     string
	ar       *golden.Archive
	rules    []byte
	srcs     map[string][]byte
	findings *txtar.File
}

func loadRuleCases(t *testing.T) []*ruleCase {
	t.Helper()
	files, _ := filepath.Glob("testdata/rules/*.txtar")
	if len(files) == 0 {
		t.Fatal("no rule cases")
	}
	var out []*ruleCase
	for _, f := range files {
		ar := golden.ReadArchive(t, f)
		c := &ruleCase{file: f, ar: ar, srcs: map[string][]byte{}}
		for i := range ar.Files {
			af := &ar.Files[i]
			switch {
			case af.Name == "rules.yml":
				c.rules = af.Data
			case af.Name == "findings":
				c.findings = af
			case strings.HasPrefix(af.Name, "fixed/"): // expected, compared as a set
			default:
				c.srcs[af.Name] = af.Data
			}
		}
		if c.rules == nil || c.findings == nil || len(c.srcs) == 0 {
			t.Fatalf("%s: incomplete case", f)
		}
		out = append(out, c)
	}
	return out
}

// writeSources lays the case's sources out in a new directory.
func (c *ruleCase) writeSources(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range c.srcs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yml"), c.rules, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// scanCase runs the case's rules over dir as `gopi ast scan` does.
func scanCase(t *testing.T, c *ruleCase, dir string) (*ScanResult, []RuleConfig) {
	t.Helper()
	rules, err := ParseRules(c.rules)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Scan(context.Background(), ScanRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ParseIssues) > 0 {
		t.Fatalf("parse issues: %v", res.ParseIssues)
	}
	return res, rules
}

// fixCase applies the rules' fixes to dir as `gopi ast scan -U` does and
// returns every source file's content afterwards; nil when no rule has a
// fix.
func fixCase(t *testing.T, c *ruleCase, rules []RuleConfig, dir string) map[string]string {
	t.Helper()
	if !slices.ContainsFunc(rules, func(r RuleConfig) bool { return r.HasFix }) {
		return nil
	}
	rewrites, lang, err := FixRewrites(rules)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Edit(context.Background(), EditRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Rules: rewrites, Lang: lang}); err != nil {
		t.Fatal(err)
	}
	return readSources(t, c, dir)
}

func readSources(t *testing.T, c *ruleCase, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name := range c.srcs {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(b)
	}
	return out
}

func renderFindings(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		m := f.Match
		first, _, _ := strings.Cut(m.Text, "\n")
		fmt.Fprintf(&b, "%s %s %d:%d-%d:%d|%s\n", f.Rule.ID, filepath.ToSlash(m.Path), m.Start.Line+1, m.Start.Column+1, m.End.Line+1, m.End.Column+1, first)
	}
	return b.String()
}

// TestRuleConformance runs every rule case (kind, inside, has, not, all,
// any of mixed sub-rules, regex, constraints, utils, transform, fix in Go,
// Python, TypeScript and Rust) through Scan and the -U rewrite and
// compares them with the recorded results, which TestRuleConformanceCLI
// checks against the ast-grep CLI (-update rewrites them).
func TestRuleConformance(t *testing.T) {
	t.Parallel()
	requireNative(t)
	for _, c := range loadRuleCases(t) {
		t.Run(strings.TrimSuffix(filepath.Base(c.file), ".txtar"), func(t *testing.T) {
			dir := c.writeSources(t)
			res, rules := scanCase(t, c, dir)
			got := renderFindings(res.Findings)
			fixed := fixCase(t, c, rules, dir)
			c.ar.CheckFile(t, c.findings, got)
			changed := map[string]string{} // a file -U leaves unchanged has no section
			for name, data := range fixed {
				if data != string(c.srcs[name]) {
					changed["fixed/"+name] = data
				}
			}
			c.ar.CheckPrefix(t, "fixed/", changed)
			c.ar.Save(t)
			if golden.Update() {
				return
			}
			for _, r := range rules {
				if !slices.ContainsFunc(res.Findings, func(f Finding) bool { return f.Rule.ID == r.ID }) {
					t.Errorf("rule %s finds nothing", r.ID)
				}
			}
		})
	}
}

// astgrepCLI returns the ast-grep CLI to compare with: GOPI_ASTGREP_CLI,
// else the copy scripts/astgrep-cli.sh installs (bench/_work/astgrep-cli);
// "" when neither is there. (Not `sg` from PATH: on Debian that is
// newgrp.)
func astgrepCLI() string {
	if cli := os.Getenv("GOPI_ASTGREP_CLI"); cli != "" {
		return cli
	}
	p, err := filepath.Abs("../bench/_work/astgrep-cli/node_modules/.bin/ast-grep")
	if err != nil {
		return ""
	}
	if out, err := exec.Command(p, "--version").Output(); err == nil && strings.HasPrefix(string(out), "ast-grep ") {
		return p
	}
	return ""
}

// TestRuleConformanceCLI compares every rule case with the ast-grep CLI
// (`ast-grep scan -r rules.yml --json=stream DIR`, and `scan -U` on a copy
// for the fixes): the same findings (rule id, file, byte range) and the
// same rewritten files. Skipped without the CLI (scripts/astgrep-cli.sh
// installs it; GOPI_ASTGREP_CLI names another).
func TestRuleConformanceCLI(t *testing.T) {
	t.Parallel()
	cli := astgrepCLI()
	if cli == "" {
		t.Skip("ast-grep CLI not found: set GOPI_ASTGREP_CLI or run scripts/astgrep-cli.sh")
	}
	requireNative(t)
	for _, c := range loadRuleCases(t) {
		t.Run(strings.TrimSuffix(filepath.Base(c.file), ".txtar"), func(t *testing.T) {
			dir := c.writeSources(t)
			res, rules := scanCase(t, c, dir)
			ours := map[string]bool{}
			for _, f := range res.Findings {
				ours[fmt.Sprintf("%s %s %d-%d", f.Rule.ID, filepath.ToSlash(f.Match.Path), f.Match.Start.Offset, f.Match.End.Offset)] = true
			}
			theirs := cliScan(t, cli, dir)
			if d := setDiff(ours, theirs); d != "" {
				t.Errorf("findings differ from the CLI: %s", d)
			}
			if len(ours) == 0 {
				t.Errorf("the case finds nothing")
			}
			fixed := fixCase(t, c, rules, dir)
			if fixed == nil {
				return
			}
			cliDir := c.writeSources(t)
			cmd := exec.Command(cli, "scan", "-r", "rules.yml", "-U", ".")
			cmd.Dir = cliDir
			// Exit status 1: a rule of severity error matched.
			if out, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() != 1 {
				t.Fatalf("cli scan -U: %v\n%s", err, out)
			}
			theirFix := readSources(t, c, cliDir)
			changed := false
			for name, data := range fixed {
				if data != theirFix[name] {
					t.Errorf("%s after -U:\n%s\ncli:\n%s", name, data, theirFix[name])
				}
				changed = changed || data != string(c.srcs[name])
			}
			if !changed {
				t.Errorf("the fixes change nothing")
			}
		})
	}
}

// cliScan runs the CLI's scan and returns its findings as
// "RULE PATH START-END" (byte offsets).
func cliScan(t *testing.T, cli, dir string) map[string]bool {
	t.Helper()
	cmd := exec.Command(cli, "scan", "-r", "rules.yml", "--json=stream", ".")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && stdout.Len() == 0 {
		t.Fatalf("cli scan: %v\n%s", err, stderr.String())
	}
	out := map[string]bool{}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var m struct {
			File   string `json:"file"`
			RuleID string `json:"ruleId"`
			Range  struct {
				ByteOffset struct{ Start, End int } `json:"byteOffset"`
			} `json:"range"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("%s %s %d-%d", m.RuleID, filepath.ToSlash(m.File), m.Range.ByteOffset.Start, m.Range.ByteOffset.End)] = true
	}
	return out
}
