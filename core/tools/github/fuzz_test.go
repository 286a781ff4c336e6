package github

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseTarget feeds arbitrary issue:// and pr:// URLs (the model
// writes them): parsing never panics, and what it accepts names a
// positive number or a list, and a diff part only for pr://.
func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"issue://12", "pr://34/diff", "pr://34/diff/2", "pr://a/b/34/diff/all", "issue://a/b?state=all&label=x",
		"issue://", "pr://a/b", "issue://12/diff", "pr://0", "issue://%zz?%", "pr://-1", "issue://a/b/c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tg, err := parseTarget(raw)
		if err != nil {
			return
		}
		if tg.number < 0 || (tg.number == 0 && tg.diff != "") {
			t.Fatalf("%q: number %d diff %q", raw, tg.number, tg.diff)
		}
		if tg.diff != "" && tg.kind != PRScheme {
			t.Fatalf("%q: a diff of a %s", raw, tg.kind)
		}
		if tg.repo != "" && strings.Count(tg.repo, "/") != 1 {
			t.Fatalf("%q: repo %q", raw, tg.repo)
		}
	})
}

// FuzzSplitDiff feeds arbitrary text as gh pr diff output: splitting
// never panics and loses nothing after the first file header.
func FuzzSplitDiff(f *testing.F) {
	f.Add(readString("testdata/pr34.diff"))
	f.Add("diff --git a/x b/x\n+a\n-b\n")
	f.Add("no header\n")
	f.Add("diff --git a/x\n")
	f.Fuzz(func(t *testing.T, diff string) {
		files := splitDiff(diff)
		var b strings.Builder
		for _, fl := range files {
			b.WriteString(fl.text)
		}
		if i := strings.Index(diff, "diff --git "); i >= 0 && (i == 0 || diff[i-1] == '\n') {
			if b.String() != diff[i:] {
				t.Fatalf("files do not add up to the diff")
			}
		}
	})
}

// FuzzRenderViews feeds arbitrary JSON as gh's answers: decoding and
// rendering every view never panics.
func FuzzRenderViews(f *testing.F) {
	for _, name := range []string{"issue12.json", "pr34.json", "repo.json", "search_issues.json", "search_commits.json"} {
		f.Add([]byte(readString("testdata/" + name)))
	}
	f.Add([]byte(`{"author":null,"labels":[null],"comments":[{}],"reviews":[{"commit":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var i issueData
		if json.Unmarshal(data, &i) == nil {
			_ = renderIssue(&i, "1", true)
		}
		var p prData
		if json.Unmarshal(data, &p) == nil {
			_ = renderPR(&p, "", true)
		}
		var r repoData
		if json.Unmarshal(data, &r) == nil {
			_ = renderRepo(&r, "", "")
		}
		var s searchPage[searchIssue]
		if json.Unmarshal(data, &s) == nil {
			_ = renderIssueSearch("issues", "q", "", s.Items)
		}
	})
}
