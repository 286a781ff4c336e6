package github

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// relativeBound is a since/until bound counted back from now: a number
// and a unit (m minutes, h hours, d days, w weeks, mo months, y years).
var relativeBound = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(\d+)\s*(mo|m|h|d|w|y)$`)
})

// isoDate is a bound given as a calendar day.
var isoDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
})

// datetimeLayouts are the date-times a bound may be written as; those
// without a zone are local time, as omp reads them.
var datetimeLayouts = []struct {
	layout string
	local  bool
}{
	{time.RFC3339Nano, false},
	{"2006-01-02T15:04Z07:00", false},
	{"2006-01-02T15:04:05.999999999", true},
	{"2006-01-02T15:04", true},
	{"2006-01-02 15:04:05.999999999", true},
	{"2006-01-02 15:04", true},
}

// maxRelativeCount bounds a relative count, so that the date stays a
// date GitHub can read.
const maxRelativeCount = 100000

// searchDateBound turns a since/until value into what a GitHub search
// qualifier takes: YYYY-MM-DD for relative durations (the UTC day that
// long before now) and calendar days, an ISO 8601 UTC date-time with
// milliseconds for date-times.
func searchDateBound(raw string, now time.Time) (string, error) {
	v := strings.TrimSpace(raw)
	if v == "" {
		return "", tool.Errorf("since/until must not be empty: give a duration such as 3d, a date YYYY-MM-DD or an ISO date-time")
	}
	if m := relativeBound().FindStringSubmatch(v); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil || n > maxRelativeCount {
			return "", badBound(raw)
		}
		now = now.UTC()
		var t time.Time
		switch strings.ToLower(m[2]) {
		case "m":
			t = now.Add(-time.Duration(n) * time.Minute)
		case "h":
			t = now.Add(-time.Duration(n) * time.Hour)
		case "d":
			t = now.AddDate(0, 0, -n)
		case "w":
			t = now.AddDate(0, 0, -7*n)
		case "mo":
			t = now.AddDate(0, -n, 0)
		default: // y
			t = now.AddDate(-n, 0, 0)
		}
		if t.Year() < 1970 {
			return "", tool.Errorf("date bound %q reaches back before 1970: give a shorter duration or a date", raw)
		}
		return t.Format("2006-01-02"), nil
	}
	if isoDate().MatchString(v) {
		if _, err := time.Parse("2006-01-02", v); err != nil { // a month or day that does not exist
			return "", badBound(raw)
		}
		return v, nil
	}
	for _, l := range datetimeLayouts {
		loc := time.UTC
		if l.local {
			loc = time.Local
		}
		if t, err := time.ParseInLocation(l.layout, v, loc); err == nil {
			return t.UTC().Format("2006-01-02T15:04:05.000Z"), nil
		}
	}
	return "", badBound(raw)
}

// badBound is the error of a since/until value gopi cannot read.
func badBound(raw string) error {
	return tool.Errorf("invalid date bound %q: give a duration such as 3d, 12h, 2w, 6mo or 1y, a date YYYY-MM-DD, or an ISO date-time", raw)
}

// searchDateField is the qualifier field since/until filter on: commits
// always by committer-date; repositories by created, or pushed for
// "updated"; issues and PRs by created or updated.
func searchDateField(op, requested string) string {
	if op == "search_commits" {
		return "committer-date"
	}
	if requested == "" {
		requested = "created"
	}
	if op == "search_repos" && requested == "updated" {
		return "pushed"
	}
	return requested
}

// searchDateQualifier is the qualifier for a's since/until on op
// ("field:>=A", "field:<=B" or "field:A..B"), "" when neither is given.
func searchDateQualifier(op string, a *args, now time.Time) (string, error) {
	// An empty bound is no bound, as in omp.
	var since, until string
	var err error
	if a.Since != nil && *a.Since != "" {
		if since, err = searchDateBound(*a.Since, now); err != nil {
			return "", err
		}
	}
	if a.Until != nil && *a.Until != "" {
		if until, err = searchDateBound(*a.Until, now); err != nil {
			return "", err
		}
	}
	field := searchDateField(op, a.DateField)
	switch {
	case since == "" && until == "":
		return "", nil
	case since != "" && until != "":
		if boundTime(since).After(boundTime(until)) {
			return "", tool.Errorf("since (%s, %s) is later than until (%s, %s): nothing can match; swap them or drop one", *a.Since, since, *a.Until, until)
		}
		return field + ":" + since + ".." + until, nil
	case since != "":
		return field + ":>=" + since, nil
	default:
		return field + ":<=" + until, nil
	}
}

// boundTime is a bound searchDateBound made, as a time (a day at 00:00 UTC).
func boundTime(b string) time.Time {
	if t, err := time.Parse("2006-01-02T15:04:05.000Z", b); err == nil {
		return t
	}
	t, _ := time.Parse("2006-01-02", b)
	return t
}
