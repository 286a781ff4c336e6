package usagestats

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// writeFixture10000 writes the 10,000 session files of BenchmarkScan10000
// below root: 40 distinct sessions from sessiongen (24 entries each, about
// 40 KB: prompts, thinking, tool calls and their output), each written 250
// times over 50 project directories. It returns their total size.
func writeFixture10000(tb testing.TB, root string) int64 {
	files := genSessions(tb, tb.TempDir(), 40, 24)
	var total int64
	for i := range 10_000 {
		data, err := os.ReadFile(files[i%len(files)])
		if err != nil {
			tb.Fatal(err)
		}
		dir := filepath.Join(root, fmt.Sprintf("--proj%d--", i%50))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%05d.jsonl", i)), data, 0o600); err != nil {
			tb.Fatal(err)
		}
		total += int64(len(data))
	}
	return total
}

// TestWriteFixture10000 writes the benchmark's sessions to
// $GOPI_STATS_FIXTURE/sessions, to time `gopi stats` on them
// (PI_CODING_AGENT_DIR=$GOPI_STATS_FIXTURE); skipped without it.
func TestWriteFixture10000(t *testing.T) {
	dir := os.Getenv("GOPI_STATS_FIXTURE")
	if dir == "" {
		t.Skip("set GOPI_STATS_FIXTURE to a directory to write the 10,000 sessions of BenchmarkScan10000 there")
	}
	t.Logf("%d bytes", writeFixture10000(t, filepath.Join(dir, "sessions")))
}
