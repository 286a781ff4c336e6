// Package applypatch applies file changes as omp's patch applier does:
// the edit tool's patch mode ({op, rename, diff} for one file) and its
// apply_patch mode (the Codex "*** Begin Patch" envelope, several files)
// both come down to FileOps run by ApplyOp.
//
//	*** Begin Patch
//	*** Update File: src/app.py
//	@@ def greet():
//	-print("Hi")
//	+print("Hello")
//	*** End Patch
//
// ParseEnvelope splits an envelope into FileOps as omp's parser does: an
// Add File section's "+" lines become the content, an Update File
// section's body (its lines up to the next section) becomes the diff, a
// Move to line the rename. ApplyOp runs one FileOp: a create writes the
// whole file (replacing one there), a delete removes it, an update reads
// the diff's hunks (ParseDiffHunks: "@@" locators, unified headers, line
// hints, context, "*** End of File") and places them with omp's searches
// (seekpatch.go, locator.go, textmatch.go, fuzzy.go, variants.go): exact,
// then ignoring white space, comment markers and typographic punctuation,
// then prefix, substring and similarity, several matches refused unless
// a line hint picks one, a lone hunk of removed and added lines matched
// as text, hunks found with other indentation re-indented
// (reindent.go). An operation is all or nothing for its file; running
// the operations of an envelope one after another, a failure stopping
// only its own file, is the caller's part (the edit tool's).
//
// The file access is the FS interface (the edit tool in production, an
// in-memory tree in tests). An updated file keeps its byte-order mark and
// line endings and, as in omp, ends with a line break only when it did.
// Deliberate choices where omp passes on the system's error (a directory
// where a file is expected, a parent that cannot be created) or would
// write regardless: errors name the file as written and say what is
// wrong, files the FS refuses to change (read-only, hard-linked) are
// refused before anything is written, and a moved file keeps the source's
// mode.
package applypatch
