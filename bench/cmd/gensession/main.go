// Command gensession writes a large, realistic session file for the
// benchmarks (see package internal/sessiongen): by default about 40,000
// entries and 50.6 MB, with compactions, branches, images in the blob
// store and long tool output, the size the agent must resume quickly.
//
// Usage:
//
//	gensession -dir DIR -cwd CWD [-blobs DIR] [-entries N] [-bytes N] [-seed N]
//
// The file is created in DIR (named as the agent names session files) and
// its path printed on the first line of the output, followed by what it
// holds. The output is a fixed function of the flags.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gopi-agent/gopi/internal/sessiongen"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gensession", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o sessiongen.Options
	fs.StringVar(&o.Dir, "dir", "", "directory to create the session file in (required)")
	fs.StringVar(&o.Cwd, "cwd", "", "working directory recorded in the session header (required)")
	fs.StringVar(&o.BlobDir, "blobs", "", "blob store for images (default: images stay inline)")
	fs.IntVar(&o.Entries, "entries", 40_000, "entries to write (about: the last turn is completed)")
	fs.Int64Var(&o.Bytes, "bytes", 50_600_000, "file size to aim for")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed")
	fs.IntVar(&o.CompactAt, "compact-at", 100_000, "estimated context tokens that trigger a compaction")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.Dir == "" || o.Cwd == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: gensession -dir DIR -cwd CWD [-blobs DIR] [-entries N] [-bytes N] [-seed N] [-compact-at TOKENS]")
		return 2
	}
	st, err := sessiongen.Write(o)
	if err != nil {
		fmt.Fprintf(stderr, "gensession: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, st.Path)
	fmt.Fprintf(stdout, "entries %d bytes %d compactions %d branches %d images %d context_tokens %d\n",
		st.Entries, st.Bytes, st.Compactions, st.Branches, st.Images, st.ContextTokens)
	return 0
}
