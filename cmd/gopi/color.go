package main

import (
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/search/grep/printer"
)

// colorPalette chooses colors from --color (auto, always, never): auto
// colors only a terminal and honours NO_COLOR and TERM=dumb, looked up
// with getenv (the configuration's environment).
func colorPalette(mode string, terminal bool, getenv func(string) string) (printer.Palette, error) {
	switch mode {
	case "", "auto":
		if !terminal || getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
			return printer.Palette{}, nil
		}
	case "always":
	case "never":
		return printer.Palette{}, nil
	default:
		return printer.Palette{}, cliflags.Usagef("--color must be auto, always or never, got %q", mode)
	}
	return printer.Ripgrep(), nil
}
