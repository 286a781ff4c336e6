package main

import (
	"fmt"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/htmlexport"
	"github.com/gopi-agent/gopi/core/session"
)

// exportSession runs `gopi --export FILE [OUT]`: the session file as one
// HTML page, without starting the session (the file is only read).
func exportSession(env *cliEnv, cfg *config.Config, file string, args []string) int {
	if len(args) > 1 {
		fmt.Fprintf(env.stderr, "gopi: --export takes one output path, got %d arguments\n", len(args))
		return exitError
	}
	out := ""
	if len(args) == 1 {
		out = args[0]
	}
	so := session.Options{BlobDir: cfg.BlobDir(), BlobFallback: []string{cfg.OMPBlobDir()}}
	path, err := htmlexport.ExportFile(file, out, so, htmlexport.Options{Generator: "gopi " + version,
		Warn: func(w string) { fmt.Fprintf(env.stderr, "gopi: warning: %s\n", w) }})
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v\n", err)
		return exitError
	}
	fmt.Fprintf(env.stdout, "Exported to: %s\n", path)
	return 0
}
