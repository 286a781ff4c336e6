package applypatch

// Markers inside an Update File body.
const (
	eofMarker       = "*** End of File"
	bareContext     = "@@"
	contextWithText = "@@ "
)

// Kind is the operation a Hunk performs on one file.
type Kind int

// Hunk kinds.
const (
	AddFile    Kind = iota // write a new file (ApplyOp replaces an existing one itself)
	DeleteFile             // remove a file
	UpdateFile             // patch a file in place, optionally moving it
)

// Hunk is one file operation of a patch.
type Hunk struct {
	Kind     Kind
	Path     string  // as written in the patch
	MovePath string  // UpdateFile only: rename target, "" for none
	Contents string  // AddFile only: the new file, ending in "\n" when non-empty
	Chunks   []Chunk // UpdateFile only: at least one (see ParseDiffHunks)
}

// Chunk is one hunk of an update, as ParseDiffHunks reads it; the applier
// places chunks as omp's patch applier does: a chunk without old lines (a
// pure addition) goes right after its "@@ TEXT" locator, or before line
// LineHint, and only without either at the end of the file; its Locators
// are searched with omp's passes, and one that is missing or ambiguous is
// passed over when the chunk's lines occur once (see placePatchChunk).
type Chunk struct {
	Context    string   // the "@@ TEXT" locator line's text
	HasContext bool     // a "@@ TEXT" locator was given (a bare "@@" is not one)
	OldLines   []string // lines to find (context and removed lines)
	NewLines   []string // their replacement (context and added lines)
	EndOfFile  bool     // "*** End of File" followed the chunk: match at the tail first
	// LineHint is the 1-based line a unified header ("@@ -12,4 +12,5 @@")
	// or "@@ line N" names, 0 for none.
	LineHint int
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
