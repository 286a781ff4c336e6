package main

import (
	"testing"

	"github.com/gopi-agent/gopi/core/usagestats"
)

// The warning about unreadable session files names them with the reason
// and agrees in number.
func TestStatsUnreadableText(t *testing.T) {
	one := &usagestats.Report{Unreadable: 1, UnreadableFiles: []usagestats.UnreadableFile{{Path: "/s/b.jsonl", Reason: "a symbolic link to a missing file"}}}
	if got, want := unreadableText(one), "1 session file could not be read and was skipped: /s/b.jsonl (a symbolic link to a missing file)"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	many := &usagestats.Report{Unreadable: 5, UnreadableFiles: []usagestats.UnreadableFile{{Path: "/s/a", Reason: "permission denied"}, {Path: "/s/b", Reason: "permission denied"}}}
	if got, want := unreadableText(many), "5 session files could not be read and were skipped: /s/a (permission denied), /s/b (permission denied) and 3 more"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
