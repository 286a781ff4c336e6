package applypatch

import (
	"fmt"
	"strings"
)

// Envelope and section markers. Action headers carry their trailing space:
// everything after it is the path, taken literally.
const (
	beginMarker     = "*** Begin Patch"
	endMarker       = "*** End Patch"
	addMarker       = "*** Add File: "
	deleteMarker    = "*** Delete File: "
	updateMarker    = "*** Update File: "
	moveMarker      = "*** Move to: "
	eofMarker       = "*** End of File"
	bareContext     = "@@"
	contextWithText = "@@ "
)

// Kind is the operation a Hunk performs on one file.
type Kind int

// Hunk kinds.
const (
	AddFile    Kind = iota // create a file (an existing one is refused)
	DeleteFile             // remove a file
	UpdateFile             // patch a file in place, optionally moving it
)

// Hunk is one file operation of a patch.
type Hunk struct {
	Kind     Kind
	Path     string  // as written in the patch
	MovePath string  // UpdateFile only: rename target, "" for none
	Contents string  // AddFile only: the new file, ending in "\n" when non-empty
	Chunks   []Chunk // UpdateFile only: at least one
}

// Chunk is one change inside an UpdateFile hunk.
type Chunk struct {
	Context    string   // the "@@ TEXT" locator line's text
	HasContext bool     // a "@@ TEXT" locator was given (a bare "@@" is not one)
	OldLines   []string // lines to find (context and removed lines)
	NewLines   []string // their replacement (context and added lines)
	EndOfFile  bool     // "*** End of File" followed the chunk: match at the tail first
	// PatchMode marks a chunk of the edit tool's patch mode, which places
	// chunks as omp does: a chunk without old lines (a pure addition) goes
	// right after its "@@ TEXT" locator, or before line LineHint (1-based,
	// from a unified header or "@@ line N"), and only without either at
	// the end of the file (where an Update File section always appends it,
	// as Codex does); its Locators (not Context) are searched with omp's
	// passes, and one that is missing or ambiguous is passed over when the
	// chunk's lines occur once (see placePatchChunk).
	PatchMode bool
	LineHint  int
	// HasContextLines: the patch-mode hunk holds a line that stays (" ",
	// unprefixed, blank or "..."). A hunk of only "-" and "+" lines,
	// without locator or line hint, must match in one place only; alone
	// in its diff, it is matched as text, with a fuzzy fallback (see
	// updatedText).
	HasContextLines bool
	// Locators are a patch-mode hunk's "@@ TEXT" locators as written,
	// outermost first; patch mode finds them in turn, each after the
	// previous (see findLocators), rather than Context alone.
	Locators []string
}

// ParseError is a malformed patch. Line is the 1-based line of the trimmed
// patch a hunk error refers to; 0 marks an envelope error.
type ParseError struct {
	Msg  string
	Line int
}

// Error renders the message the reference prints for a malformed patch.
func (e *ParseError) Error() string {
	if e.Line == 0 {
		return "Invalid patch: " + e.Msg
	}
	return fmt.Sprintf("Invalid patch hunk on line %d: %s", e.Line, e.Msg)
}

// Parse parses a complete patch. The text is trimmed and split on "\n";
// marker lines are recognised after trimming their own spaces. When the
// envelope is missing, a heredoc wrapper (<<EOF, <<'EOF' or <<"EOF" …
// EOF) around an enveloped patch is accepted too.
func Parse(text string) ([]Hunk, error) {
	lines := splitPatch(text)
	body, err := envelope(lines, true)
	if err != nil {
		inner, ok := unwrapHeredoc(lines)
		if !ok {
			return nil, err
		}
		if body, err = envelope(inner, true); err != nil {
			return nil, err
		}
	}
	return parseHunks(body, false)
}

// ParseStreaming parses a patch that may still be arriving: the closing
// "*** End Patch" may be missing and a trailing incomplete hunk is
// dropped. Its result is for progress display only, never for applying.
func ParseStreaming(text string) ([]Hunk, error) {
	lines := splitPatch(text)
	body, err := envelope(lines, false)
	if err != nil {
		return nil, err
	}
	return parseHunks(body, true)
}

func splitPatch(text string) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// envelope checks the begin (and, when requireEnd, end) markers and
// returns the lines between them.
func envelope(lines []string, requireEnd bool) ([]string, error) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != beginMarker {
		return nil, &ParseError{Msg: "The first line of the patch must be '*** Begin Patch'"}
	}
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(lines) >= 2 && last == endMarker {
		return lines[1 : len(lines)-1], nil
	}
	if requireEnd {
		return nil, &ParseError{Msg: "The last line of the patch must be '*** End Patch'"}
	}
	return lines[1:], nil
}

// unwrapHeredoc strips a heredoc wrapper whose opener is exactly one of
// the three accepted spellings and whose closer is EOF.
func unwrapHeredoc(lines []string) ([]string, bool) {
	if len(lines) < 4 {
		return nil, false
	}
	switch strings.TrimSpace(lines[0]) {
	case "<<EOF", "<<'EOF'", `<<"EOF"`:
	default:
		return nil, false
	}
	if strings.TrimSpace(lines[len(lines)-1]) != "EOF" {
		return nil, false
	}
	return lines[1 : len(lines)-1], true
}

// parseHunks parses the lines between the envelope markers; the first of
// them is line 2 of the patch.
func parseHunks(lines []string, streaming bool) ([]Hunk, error) {
	var hunks []Hunk
	lineNo := 2
	for len(lines) > 0 {
		t := strings.TrimSpace(lines[0])
		if t == "" {
			lines, lineNo = lines[1:], lineNo+1
			continue
		}
		if strings.HasPrefix(t, endMarker) {
			break
		}
		h, n, err := parseHunk(lines, lineNo)
		if err != nil {
			if streaming {
				break // the hunk is still being written
			}
			return nil, err
		}
		if streaming && n == len(lines) {
			// The last hunk may still grow; show it only when complete.
			if h.Kind != DeleteFile {
				break
			}
		}
		hunks = append(hunks, h)
		lines, lineNo = lines[n:], lineNo+n
	}
	return hunks, nil
}

// parseHunk parses one file operation starting at lines[0] (patch line
// lineNo) and returns it with the number of lines it used.
func parseHunk(lines []string, lineNo int) (Hunk, int, error) {
	first := strings.TrimSpace(lines[0])
	if path, ok := strings.CutPrefix(first, addMarker); ok {
		var b strings.Builder
		n := 1
		for _, l := range lines[1:] {
			text, ok := strings.CutPrefix(l, "+")
			if !ok {
				break
			}
			b.WriteString(text)
			b.WriteByte('\n')
			n++
		}
		return Hunk{Kind: AddFile, Path: path, Contents: b.String()}, n, nil
	}
	if path, ok := strings.CutPrefix(first, deleteMarker); ok {
		return Hunk{Kind: DeleteFile, Path: path}, 1, nil
	}
	if path, ok := strings.CutPrefix(first, updateMarker); ok {
		h := Hunk{Kind: UpdateFile, Path: path}
		n := 1
		if len(lines) > 1 {
			if dest, ok := strings.CutPrefix(strings.TrimSpace(lines[1]), moveMarker); ok {
				h.MovePath = dest
				n++
			}
		}
		for n < len(lines) {
			t := strings.TrimSpace(lines[n])
			if t == "" {
				n++ // blank lines separate chunks
				continue
			}
			if strings.HasPrefix(t, "***") {
				break
			}
			c, used, err := parseChunk(lines[n:], lineNo+n, len(h.Chunks) == 0)
			if err != nil {
				return Hunk{}, 0, err
			}
			h.Chunks = append(h.Chunks, c)
			n += used
		}
		if len(h.Chunks) == 0 {
			return Hunk{}, 0, &ParseError{Msg: fmt.Sprintf("Update file hunk for path '%s' is empty", path), Line: lineNo}
		}
		return h, n, nil
	}
	return Hunk{}, 0, &ParseError{
		Msg:  fmt.Sprintf("'%s' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'", first),
		Line: lineNo,
	}
}

// parseChunk parses one chunk of an UpdateFile hunk. Only the first chunk
// of a hunk may omit its "@@" line.
func parseChunk(lines []string, lineNo int, firstChunk bool) (Chunk, int, error) {
	var c Chunk
	start := 0
	head := strings.TrimSpace(lines[0])
	switch {
	case head == bareContext:
		start = 1
	case strings.HasPrefix(lines[0], contextWithText):
		c.Context, c.HasContext = lines[0][len(contextWithText):], true
		start = 1
	case !firstChunk:
		return c, 0, &ParseError{Msg: fmt.Sprintf("Expected update hunk to start with a @@ context marker, got: '%s'", lines[0]), Line: lineNo}
	}
	if start >= len(lines) {
		return c, 0, &ParseError{Msg: "Update hunk does not contain any lines", Line: lineNo + 1}
	}
	n := 0
	changed := false
	for _, l := range lines[start:] {
		if strings.TrimSpace(l) == eofMarker {
			if n == 0 {
				return c, 0, &ParseError{Msg: "Update hunk does not contain any lines", Line: lineNo + 1}
			}
			c.EndOfFile = true
			n++
			break
		}
		if l == "" {
			c.OldLines = append(c.OldLines, "")
			c.NewLines = append(c.NewLines, "")
			n++
			continue
		}
		switch l[0] {
		case ' ':
			c.OldLines = append(c.OldLines, l[1:])
			c.NewLines = append(c.NewLines, l[1:])
		case '+':
			c.NewLines = append(c.NewLines, l[1:])
			changed = true
		case '-':
			c.OldLines = append(c.OldLines, l[1:])
			changed = true
		default:
			if n == 0 {
				return c, 0, &ParseError{
					Msg:  fmt.Sprintf("Unexpected line found in update hunk: '%s'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)", l),
					Line: lineNo + start,
				}
			}
			goto done // the next chunk or section begins here
		}
		n++
	}
done:
	if !changed {
		return c, 0, &ParseError{Msg: "Update hunk does not contain any added or removed lines", Line: lineNo}
	}
	return c, start + n, nil
}
