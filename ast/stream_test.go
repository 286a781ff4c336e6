package ast

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// A streamed search hands over the same page, in the same order, as a
// collected one, with the same totals; a huge file (searched first) does
// not disturb the order.
func TestSearchOnMatchStreamsInOrder(t *testing.T) {
	t.Parallel()
	requireNative(t)
	files := map[string]string{}
	for i := range 150 { // more files than one batch holds
		files[fmt.Sprintf("p%03d.go", i)] = fmt.Sprintf("package p\n\nfunc f() {\n\tg(%d)\n\tg(%d)\n}\n", i, i+1)
	}
	var big strings.Builder
	big.WriteString("package p\n\nfunc h() {\n\tg(1)\n")
	for big.Len() < hugeFile+1000 { // comments: cheap to parse
		big.WriteString("\t// filler filler filler filler filler filler filler filler\n")
	}
	big.WriteString("\tg(2)\n}\n")
	files["p075big.go"] = big.String()
	dir := tree(t, files)
	for _, page := range [][2]int{{0, 0}, {7, 20}, {250, 5}} {
		req := SearchRequest{Scope: Scope{Paths: []string{dir}}, Patterns: []string{"g($A)"}, Offset: page[0], Limit: page[1]}
		want := search(t, req)
		var got []Match
		req.OnMatch = func(m Match) error { got = append(got, m); return nil }
		res := search(t, req)
		if len(res.Matches) != 0 {
			t.Fatalf("page %v: streamed search also collected %d matches", page, len(res.Matches))
		}
		if locations(got) != locations(want.Matches) || len(got) == 0 {
			t.Fatalf("page %v: streamed %d matches %q, collected %d", page, len(got), locations(got)[:min(200, len(locations(got)))], len(want.Matches))
		}
		if res.TotalMatches != want.TotalMatches || res.LimitReached != want.LimitReached || res.FilesWithMatches != want.FilesWithMatches {
			t.Fatalf("page %v: totals differ: %+v vs %+v", page, res, want)
		}
	}
}

// An error from OnMatch stops the search and is returned.
func TestSearchOnMatchErrorStops(t *testing.T) {
	t.Parallel()
	requireNative(t)
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("p%03d.go", i)] = "package p\n\nfunc f() { g(1) }\n"
	}
	dir := tree(t, files)
	boom := errors.New("boom")
	n := 0
	_, err := Search(t.Context(), SearchRequest{Scope: Scope{Paths: []string{dir}}, Patterns: []string{"g($A)"},
		OnMatch: func(Match) error { n++; return boom }})
	if !errors.Is(err, boom) || n != 1 {
		t.Fatalf("err %v after %d matches; want boom after 1", err, n)
	}
}

// Huge files get jobs of their own, first and largest first; the others
// are batched in candidate order.
func TestMakeJobsHugeFirstThenInOrder(t *testing.T) {
	t.Parallel()
	m := &astgrep.Matcher{}
	sizes := []int64{10, hugeFile, 20, 3 * hugeFile, 30, 2 * hugeFile, 40}
	cands := make([]candidate, len(sizes))
	for i, s := range sizes {
		cands[i].size = s
	}
	jobs := makeJobs(cands, func(int) *astgrep.Matcher { return m })
	var got [][]int
	for _, j := range jobs {
		got = append(got, j.items)
	}
	want := [][]int{{3}, {5}, {1}, {0, 2, 4, 6}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("jobs %v, want %v", got, want)
	}
}

// Interleaved languages give batches whose files are far apart in path
// order; handing out batches ahead of the output must not stall on them
// (run with one worker and with two).
func TestSearchInterleavedLanguagesNoStall(t *testing.T) {
	requireNative(t)
	files := map[string]string{}
	exts := []string{"go", "py", "js"}
	for i := range 600 {
		ext := exts[i%3]
		src := "f(1)\n"
		if ext == "go" {
			src = "package p\n\nfunc g() { f(1) }\n"
		}
		if i%7 == 0 {
			ext = "js" // uneven runs
		}
		files[fmt.Sprintf("f%04d.%s", i, ext)] = src
	}
	dir := tree(t, files)
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		var got []Match
		res, err := Search(t.Context(), SearchRequest{Scope: Scope{Paths: []string{dir}}, Patterns: []string{"f($A)"},
			OnMatch: func(m Match) error { got = append(got, m); return nil }})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if res.TotalMatches != 600 || len(got) != 600 {
			t.Fatalf("GOMAXPROCS %d: %d matches (%d streamed), want 600", procs, res.TotalMatches, len(got))
		}
		if !slices.IsSortedFunc(got, func(a, b Match) int { return strings.Compare(a.Path, b.Path) }) {
			t.Fatalf("GOMAXPROCS %d: matches out of path order", procs)
		}
	}
}

// A deadline that passes after every file was searched, while the caller
// is still taking the last results, is not a timeout: nothing was cut
// short (the CLI printed every match and then exited 2).
func TestDeadlineAfterTheLastFileIsNotATimeout(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.go": "package a\n\nfunc f() { g(1) }\n"})
	var got []Match
	res, err := Search(context.Background(), SearchRequest{
		Scope: Scope{Paths: []string{"."}, Cwd: dir}, Patterns: []string{"g($A)"}, Timeout: 500 * time.Millisecond,
		OnMatch: func(m Match) error {
			time.Sleep(time.Second) // the deadline passes here, after the search
			got = append(got, m)
			return nil
		},
	})
	if err != nil || len(got) != 1 || res.TotalMatches != 1 {
		t.Fatalf("err %v, %d matches taken, %+v", err, len(got), res)
	}
}
