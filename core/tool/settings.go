package tool

import (
	"os"
	"strconv"
	"strings"
)

// EditMode is how the edit tool takes its input.
type EditMode string

// Edit modes.
const (
	EditHashline   EditMode = "hashline"    // anchored patch language (default)
	EditReplace    EditMode = "replace"     // old/new text replacement
	EditPatch      EditMode = "patch"       // structured diff hunks
	EditApplyPatch EditMode = "apply_patch" // Codex-style *** Begin Patch envelope
	EditVim        EditMode = "vim"         // modal editing buffer
	EditAtom       EditMode = "atom"        // reserved by the reference; unspecified
)

// EnvEditVariant forces the edit mode when it names a valid one.
const EnvEditVariant = "PI_EDIT_VARIANT"

// Settings are the options the file tools read. They mirror the reference
// settings (read.defaultLimit, search.contextBefore, …) until a
// configuration system owns them.
type Settings struct {
	EditMode                             EditMode // edit.mode; PI_EDIT_VARIANT overrides
	ReadDefaultLimit                     int      // read.defaultLimit: lines of an open-ended read (clamped to 1..DefaultMaxLines)
	ReadHashLines                        bool     // readHashLines: anchors in hashline mode
	ReadLineNumbers                      bool     // readLineNumbers: plain line numbers when anchors are off
	SearchContextBefore                  int      // search.contextBefore
	SearchContextAfter                   int      // search.contextAfter
	HashlineAutoDropPureInsertDuplicates bool     // edit.hashlineAutoDropPureInsertDuplicates
}

// DefaultSettings returns the defaults. read.defaultLimit is unspecified by
// the reference; we use the line cap, 3000.
func DefaultSettings() Settings {
	return Settings{
		EditMode:            EditHashline,
		ReadDefaultLimit:    DefaultMaxLines,
		ReadHashLines:       true,
		ReadLineNumbers:     true,
		SearchContextBefore: 1,
		SearchContextAfter:  3,
	}
}

// SettingsFromEnv returns DefaultSettings with environment overrides:
// PI_EDIT_VARIANT (a valid mode), and GOPI_READ_DEFAULT_LIMIT,
// GOPI_SEARCH_CONTEXT_BEFORE, GOPI_SEARCH_CONTEXT_AFTER (non-negative
// integers) for scripting until configuration files exist.
func SettingsFromEnv() Settings {
	s := DefaultSettings()
	if m, ok := ParseEditMode(os.Getenv(EnvEditVariant)); ok {
		s.EditMode = m
	}
	envInt("GOPI_READ_DEFAULT_LIMIT", &s.ReadDefaultLimit)
	envInt("GOPI_SEARCH_CONTEXT_BEFORE", &s.SearchContextBefore)
	envInt("GOPI_SEARCH_CONTEXT_AFTER", &s.SearchContextAfter)
	return s
}

// ParseEditMode recognises a mode name (case-insensitive).
func ParseEditMode(s string) (EditMode, bool) {
	switch m := EditMode(strings.ToLower(strings.TrimSpace(s))); m {
	case EditHashline, EditReplace, EditPatch, EditApplyPatch, EditVim, EditAtom:
		return m, true
	}
	return "", false
}

func envInt(name string, dst *int) {
	if v, err := strconv.Atoi(strings.TrimSpace(os.Getenv(name))); err == nil && v >= 0 {
		*dst = v
	}
}

// OpenEndedLimit returns the line limit of a read without an end line:
// ReadDefaultLimit clamped to 1..DefaultMaxLines.
func (s Settings) OpenEndedLimit() int {
	return min(max(s.ReadDefaultLimit, 1), DefaultMaxLines)
}
