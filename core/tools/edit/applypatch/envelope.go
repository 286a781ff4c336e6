package applypatch

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/internal/jstext"
)

// Envelope and section markers. Section headers carry their trailing
// space: what follows it is the path.
const (
	beginMarker  = "*** Begin Patch"
	endMarker    = "*** End Patch"
	addMarker    = "*** Add File: "
	deleteMarker = "*** Delete File: "
	updateMarker = "*** Update File: "
	moveMarker   = "*** Move to: "
)

// FileOp is one file section of an apply_patch envelope, in the shape
// the edit tool's patch mode takes an operation: the envelope is only a
// way to write several of them in one text.
type FileOp struct {
	Kind     Kind   // AddFile, DeleteFile or UpdateFile
	Path     string // as written after the section header
	MovePath string // UpdateFile: the "*** Move to:" destination, "" for none
	// Diff is an AddFile's content (the lines without their "+", each
	// ending in "\n") or an UpdateFile's body: its lines as written, up to
	// the next section, joined by "\n" ("*** End of File" markers and
	// blank lines included). ParseDiffHunks reads the body.
	Diff string
}

// ParseError is a malformed envelope. Line, when not 0, is the 1-based
// line of the (trimmed) patch the error is about.
type ParseError struct {
	Msg  string
	Line int
}

// Error is the message with its line, as "Line 3: …".
func (e *ParseError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("Line %d: %s", e.Line, e.Msg)
}

// ErrNoFiles is returned for an envelope without any file section.
var ErrNoFiles = errors.New("No files were modified.")

// ParseEnvelope splits a "*** Begin Patch" … "*** End Patch" text into
// its file sections. The text is trimmed and split on "\n"; a heredoc
// wrapper (a first line of exactly <<EOF, <<'EOF' or <<"EOF", a last line
// of EOF) is dropped first. The begin and end markers, blank lines and
// section headers are recognised after trimming; "*** Move to:" and the
// headers that end an Update File body only at the start of a line. An
// envelope without sections is ErrNoFiles.
func ParseEnvelope(text string) ([]FileOp, error) {
	ops, err := parseEnvelope(text, false)
	if err == nil && len(ops) == 0 {
		return nil, ErrNoFiles
	}
	return ops, err
}

// ParseEnvelopeStreaming reads an envelope that may still be arriving,
// for a preview: the end marker may be missing, a text that does not
// start like an envelope has no sections, and parsing stops quietly at a
// line it cannot read. An Update File section may have an empty body.
// Never apply what it returns.
func ParseEnvelopeStreaming(text string) []FileOp {
	ops, _ := parseEnvelope(text, true)
	return ops
}

func parseEnvelope(text string, streaming bool) ([]FileOp, error) {
	lines := strings.Split(jstext.Trim(text), "\n")
	if len(lines) >= 2 && isHeredocOpener(lines[0]) && jstext.Trim(lines[len(lines)-1]) == "EOF" {
		lines = lines[1 : len(lines)-1]
	}
	if len(lines) == 0 || jstext.Trim(lines[0]) != beginMarker {
		if streaming {
			return nil, nil
		}
		return nil, &ParseError{Msg: "The first line of the patch must be '*** Begin Patch'"}
	}
	rest := lines[1:]
	if jstext.Trim(lines[len(lines)-1]) == endMarker {
		rest = lines[1 : len(lines)-1]
	} else if !streaming {
		return nil, &ParseError{Msg: "The last line of the patch must be '*** End Patch'"}
	}
	var ops []FileOp
	lineNo := 2 // the first line after the begin marker
	for len(rest) > 0 {
		first := jstext.Trim(rest[0])
		switch {
		case first == "":
			rest, lineNo = rest[1:], lineNo+1
		case strings.HasPrefix(first, addMarker):
			var content strings.Builder
			n := 1
			for n < len(rest) && strings.HasPrefix(rest[n], "+") {
				content.WriteString(rest[n][1:])
				content.WriteByte('\n')
				n++
			}
			ops = append(ops, FileOp{Kind: AddFile, Path: first[len(addMarker):], Diff: content.String()})
			rest, lineNo = rest[n:], lineNo+n
		case strings.HasPrefix(first, deleteMarker):
			ops = append(ops, FileOp{Kind: DeleteFile, Path: first[len(deleteMarker):]})
			rest, lineNo = rest[1:], lineNo+1
		case strings.HasPrefix(first, updateMarker):
			op := FileOp{Kind: UpdateFile, Path: first[len(updateMarker):]}
			rest, lineNo = rest[1:], lineNo+1
			if len(rest) > 0 && strings.HasPrefix(rest[0], moveMarker) {
				op.MovePath = rest[0][len(moveMarker):]
				rest, lineNo = rest[1:], lineNo+1
			}
			n := 0
			for n < len(rest) && !startsSection(rest[n]) {
				n++
			}
			if n == 0 && !streaming {
				return nil, &ParseError{Msg: fmt.Sprintf("Update file hunk for path '%s' is empty", op.Path), Line: lineNo}
			}
			op.Diff = strings.Join(rest[:n], "\n")
			ops = append(ops, op)
			rest, lineNo = rest[n:], lineNo+n
		case streaming:
			return ops, nil
		default:
			return nil, &ParseError{
				Msg:  fmt.Sprintf("'%s' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'", first),
				Line: lineNo,
			}
		}
	}
	return ops, nil
}

// isHeredocOpener reports whether line opens a heredoc wrapper: exactly
// one of the three spellings, untrimmed.
func isHeredocOpener(line string) bool {
	return line == "<<EOF" || line == "<<'EOF'" || line == `<<"EOF"`
}

// startsSection reports whether an Update File body ends before line: it
// starts (unindented) another section's header.
func startsSection(line string) bool {
	for _, m := range []string{addMarker, deleteMarker, updateMarker} {
		if strings.HasPrefix(line, strings.TrimSuffix(m, " ")) {
			return true
		}
	}
	return false
}
