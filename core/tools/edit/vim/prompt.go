package vim

import (
	"fmt"
	"strings"
)

// promptKey takes one key of a :, / or ? line (COMMAND mode): <CR> runs
// it, <Esc> drops it, <BS> takes back a character. A line left
// unfinished stays pending, for the next keys or the next call.
func (e *Engine) promptKey(k Key) error {
	switch k.Special {
	case "":
		e.pending = append(e.pending, k.Char)
	case "Tab":
		e.pending = append(e.pending, '\t')
	case "BS":
		e.pending = e.pending[:max(len(e.pending)-1, 0)]
	case "Esc":
		e.endPrompt()
	case "CR":
		line := string(e.pending)
		e.endPrompt()
		return e.runPrompt(line)
	default:
		return errAt(k, "Unsupported key in %s command: %s", e.prompt.Display(), k.Display())
	}
	return nil
}

// endPrompt leaves COMMAND mode, for the mode the line was started from.
func (e *Engine) endPrompt() {
	e.mode, e.pending = Normal, nil
	if e.resumeInsert {
		e.mode, e.resumeInsert = Insert, false
	}
}

// runPrompt runs a finished line: an ex command, or a search (an empty
// pattern searches for the last one again).
func (e *Engine) runPrompt(line string) error {
	if e.prompt.Is(':') {
		if e.promptCount > 0 && line == "" {
			line = fmt.Sprint(e.promptCount)
		}
		return e.ex(line)
	}
	if line == "" {
		line = e.search
	}
	e.search, e.searchBack = line, e.prompt.Is('?')
	return e.findN(max(e.promptCount, 1), e.searchBack, e.prompt)
}

// Pending is the line being typed in COMMAND mode, with its : / or ?
// ("" in other modes).
func (e *Engine) Pending() string {
	if e.mode != Command {
		return ""
	}
	return e.prompt.Display() + string(e.pending)
}

// pendingLine is the view's line for an unfinished command: the mode it
// waits in, or the command line so far.
func (e *Engine) pendingLine() string {
	switch e.mode {
	case Insert:
		return "Pending: INSERT mode"
	case Command:
		return "Pending: " + truncate(strings.ReplaceAll(e.Pending(), "\t", tabShown), 81)
	}
	return ""
}
