package hashline

import (
	"os"
	"sync"
)

// DefaultEditSeparator marks a payload line in the edit language: `~TEXT`.
const DefaultEditSeparator = "~"

// EnvEditSeparator overrides the payload separator for the whole process.
const EnvEditSeparator = "PI_HL_SEP"

var editSep = sync.OnceValue(func() string {
	if s := os.Getenv(EnvEditSeparator); s != "" {
		return s
	}
	return DefaultEditSeparator
})

// EditSeparator returns the payload-line separator: PI_HL_SEP when set and
// non-empty at first use, else "~". It is read once and never changes.
func EditSeparator() string { return editSep() }
