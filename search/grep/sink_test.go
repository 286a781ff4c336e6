package grep

import (
	"fmt"
	"testing"
)

// The pager keeps the page [Offset, Offset+Limit) of the matches it is
// handed, says when more were past it, and has enough once the page is
// full.
func TestPagerKeepsThePage(t *testing.T) {
	t.Parallel()
	file := func(lines ...int) *FileResult {
		fr := &FileResult{Path: fmt.Sprint(lines)}
		for _, l := range lines {
			fr.Matches = append(fr.Matches, Match{Line: l})
		}
		return fr
	}
	res := &Result{}
	p := &pager{res: res, content: true, skip: 2, offset: 2, limit: 3}
	if n := p.Needs(); n.Render != nil || n.CountLinesOnly || n.FirstMatchEnough || n.FirstMatchOnly || n.ReuseRendered {
		t.Fatalf("needs %+v: Search holds whole records", p.Needs())
	}
	for _, fr := range []*FileResult{file(1, 2, 3), file(4), file(5, 6, 7)} {
		if err := p.File(fr); err != nil {
			t.Fatal(err)
		}
	}
	var got []int
	for _, m := range res.Matches {
		got = append(got, m.Line)
	}
	if fmt.Sprint(got) != "[3 4 5]" || !res.LimitReached {
		t.Fatalf("page %v, limit reached %v; want [3 4 5], true", got, res.LimitReached)
	}
	if p.enough(4) || !p.enough(5) {
		t.Fatalf("enough(4) %v, enough(5) %v; want false, true", p.enough(4), p.enough(5))
	}

	files := &Result{}
	p = &pager{res: files, skip: 1, offset: 1, limit: 1}
	for _, fr := range []*FileResult{file(1), file(2), file(3)} {
		if err := p.File(fr); err != nil {
			t.Fatal(err)
		}
	}
	if len(files.Files) != 1 || files.Files[0].Path != "[2]" || !files.LimitReached {
		t.Fatalf("files page %+v", files)
	}
	if (&pager{res: &Result{}}).enough(1 << 30) {
		t.Fatal("a pager without a limit has enough")
	}
}

// Records needs whole records and hands every file to its function.
func TestRecordsSink(t *testing.T) {
	t.Parallel()
	n := 0
	var s Sink = Records(func(*FileResult) error { n++; return nil })
	if n := s.Needs(); n.Render != nil || n.CountLinesOnly || n.FirstMatchEnough || n.FirstMatchOnly || n.ReuseRendered {
		t.Fatalf("needs %+v", s.Needs())
	}
	if err := s.File(&FileResult{}); err != nil || n != 1 {
		t.Fatalf("File: %v, %d calls", err, n)
	}
}
