package github

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// searchNow is the clock of the date tests: 2026-05-09 12:30 UTC.
var searchNow = time.Date(2026, 5, 9, 12, 30, 0, 0, time.UTC)

// since/until become omp's qualifiers: relative bounds are UTC days back
// from now, dates pass as they are, date-times become UTC with
// milliseconds.
func TestSearchDateBound(t *testing.T) {
	t.Setenv("TZ", "UTC")
	for in, want := range map[string]string{
		"3d": "2026-05-06", "12h": "2026-05-09", "13h": "2026-05-08", "2w": "2026-04-25", "90m": "2026-05-09",
		"1mo": "2026-04-09", "1y": "2025-05-09", " 2 D ": "2026-05-07", "0d": "2026-05-09",
		"2026-05-01": "2026-05-01", "2026-05-01T10:00:00Z": "2026-05-01T10:00:00.000Z",
		"2026-05-01T10:00:00+02:00": "2026-05-01T08:00:00.000Z", "2026-05-01T10:00:00.25Z": "2026-05-01T10:00:00.250Z",
	} {
		got, err := searchDateBound(in, searchNow)
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"  ", "yesterday", "3x", "-3d", "2026-13", "999999999999d", "2026-13-45", "2026-02-30", "2026-00-10"} {
		if got, err := searchDateBound(in, searchNow); err == nil || (strings.TrimSpace(in) != "" && !strings.Contains(err.Error(), "a date YYYY-MM-DD")) {
			t.Errorf("%q accepted as %q (%v)", in, got, err)
		}
	}
}

// Each search op puts the date qualifier after the query, before the
// scope, on the field omp uses; the result echoes the query with it.
func TestSearchSinceUntil(t *testing.T) {
	cases := []struct {
		args  map[string]any
		rule  fakeRule
		wantQ string
	}{
		{map[string]any{"op": "search_issues", "query": "crash", "repo": "a/b", "since": "3d"}, answer("search_issues.json", "/search/issues"),
			"q=crash created:>=2026-05-06 repo:a/b is:issue"},
		{map[string]any{"op": "search_prs", "repo": "a/b", "since": "2026-05-01", "until": "1d", "dateField": "updated"}, answer("search_empty.json", "/search/issues"),
			"q=updated:2026-05-01..2026-05-08 repo:a/b is:pr"},
		{map[string]any{"op": "search_commits", "query": "fix", "repo": "a/b", "until": "2026-05-01T10:00:00Z", "dateField": "created"}, answer("search_commits.json", "/search/commits"),
			"q=fix committer-date:<=2026-05-01T10:00:00.000Z repo:a/b"},
		{map[string]any{"op": "search_repos", "query": "agent", "since": "1y", "dateField": "updated"}, answer("search_repos.json", "/search/repositories"),
			"q=agent pushed:>=2025-05-09"},
		{map[string]any{"op": "search_repos", "query": "agent", "since": "", "until": ""}, answer("search_repos.json", "/search/repositories"),
			"q=agent"},
	}
	for _, c := range cases {
		f := installFake(t, c.rule)
		tl := newTool(t)
		tl.now = func() time.Time { return searchNow }
		text := mustCall(t, tl, c.args)
		calls := f.calls()
		last := calls[len(calls)-1]
		if i := slices.Index(last, "-f"); i < 0 || last[i+1] != c.wantQ {
			t.Errorf("%v: gh %q, want %q", c.args, last, c.wantQ)
		}
		shown := strings.TrimSuffix(strings.TrimPrefix(c.wantQ, "q="), " is:issue")
		shown = regexp.MustCompile(` repo:\S+| is:pr`).ReplaceAllString(shown, "")
		if !strings.Contains(text, "Query: "+shown+"\n") {
			t.Errorf("%v: the result does not echo %q:\n%s", c.args, shown, text)
		}
	}
}

// A date filter alone is a search; search_code refuses one; bad bounds
// are refused before gh runs.
func TestSearchDateErrors(t *testing.T) {
	f := installFake(t)
	tl := newTool(t)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"op": "search_code", "query": "x", "since": "3d"}, "search_code does not take since/until"},
		{map[string]any{"op": "search_code", "query": "x", "until": ""}, "search_code does not take since/until"},
		{map[string]any{"op": "search_issues", "since": "last week"}, `invalid date bound "last week"`},
		{map[string]any{"op": "search_issues", "until": " "}, "since/until must not be empty"},
		{map[string]any{"op": "search_prs", "since": ""}, "or since/until to filter by date"},
		{map[string]any{"op": "search_issues", "since": "3d", "dateField": "closed"}, "dateField"},
		{map[string]any{"op": "search_issues", "query": "x", "since": "3d", "until": "10d"}, "is later than until"},
		{map[string]any{"op": "search_prs", "query": "x", "since": "2026-05-02", "until": "2026-05-01T23:00:00Z"}, "is later than until"},
		{map[string]any{"op": "search_prs", "query": "x", "since": "9999y"}, "reaches back before 1970"},
	} {
		text, failed := call(t, tl, c.args)
		if !failed || !strings.Contains(text, c.want) {
			t.Errorf("%v: %q, want an error with %q", c.args, text, c.want)
		}
	}
	if n := len(f.calls()); n != 0 {
		t.Errorf("gh ran %d times", n)
	}
}

// FuzzSearchDateBound feeds arbitrary since/until values (the model
// writes them): parsing never panics, and what it accepts is a date or
// a UTC date-time GitHub reads.
func FuzzSearchDateBound(f *testing.F) {
	for _, s := range []string{"3d", "12h", "2w", "6mo", "1y", "90m", "2026-05-01", "2026-05-01T10:00:00Z", "2026-05-01T10:00", "x", "", "99999999999999999999d"} {
		f.Add(s)
	}
	accepted := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}\.\d{3}Z)?$`)
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := searchDateBound(raw, searchNow)
		if err != nil {
			return
		}
		if !accepted.MatchString(got) && !isoDate().MatchString(strings.TrimSpace(raw)) {
			t.Fatalf("%q accepted as %q", raw, got)
		}
	})
}
