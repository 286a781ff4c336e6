package main

import (
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// quietPipe is standard output for the engine commands: once the reader
// of a pipe has gone (`gopi grep x / | head -1`), nothing more can be
// shown, so the process ends at once with status 0, as ripgrep does,
// instead of dying by SIGPIPE (status 141) or searching on for nobody.
// The agent modes keep their own handling (they catch SIGPIPE and report
// write errors).
type quietPipe struct{ w io.Writer }

func (q quietPipe) Write(p []byte) (int, error) {
	n, err := q.w.Write(p)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		atomicfile.RemoveTemps()
		os.Exit(exitMatch)
	}
	return n, err
}

// quietPipeCommands are the commands whose output is commonly cut short
// by a pipe.
var quietPipeCommands = map[string]bool{
	"grep": true, "find": true, "ast": true, "read": true, "tokens": true,
	"models": true, "version": true, "man": true, "completion": true,
}
