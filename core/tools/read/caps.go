package read

import (
	"os/exec"
	"time"

	"github.com/gopi-agent/gopi/core/tools/read/archive"
)

// caps bound what one read tool expands, converts and fetches, and say
// where it finds the helper programs it runs. New sets the defaults;
// tests lower them on the tool they build, so tests run in parallel.
type caps struct {
	archive       archive.Limits         // decompression caps of archive reads
	notebookBytes int64                  // notebooks bigger than this are read with :raw only
	web           fetchLimits            // web reads, before the session's fetch.* timeouts
	pdftotext     func() (string, error) // finds pdftotext (Debian's poppler-utils)
	sqliteBusy    time.Duration          // how long a database read waits for a writer's lock
}

// defaultCaps are the caps of the read tool: archive.DefaultLimits,
// 64 MiB notebooks (stored outputs make them large), defaultFetchLimits,
// pdftotext from $PATH, 3 s for a database writer's lock.
func defaultCaps() caps {
	return caps{
		archive:       archive.DefaultLimits(),
		notebookBytes: 64 << 20,
		web:           defaultFetchLimits,
		pdftotext:     func() (string, error) { return exec.LookPath("pdftotext") },
		sqliteBusy:    3 * time.Second,
	}
}
