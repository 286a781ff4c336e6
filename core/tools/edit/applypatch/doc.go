// Package applypatch implements the Codex "apply_patch" format: a
// file-oriented patch envelope with Add, Delete and Update (optionally
// Move) operations, whose update chunks are located in the file by
// content rather than by line number.
//
//	*** Begin Patch
//	*** Update File: src/app.py
//	@@ def greet():
//	-print("Hi")
//	+print("Hello")
//	*** End Patch
//
// Parse turns the text into Hunks; Apply runs them in order against a
// small FS interface. Locating a chunk (seekSequence) tries four
// comparisons of decreasing strictness — exact, trailing white space
// ignored, surrounding white space ignored, and typographic dashes,
// quotes and spaces folded to ASCII — and takes the first position that
// matches, searching forward from the end of the previous chunk, so
// chunks must appear in file order. The edit tool's patch mode
// (ParseDiffHunks, Chunk.PatchMode) locates its hunks as omp does
// instead: further passes (comment markers, prefix, substring, 92%
// similarity, text), ambiguity refused unless a line hint picks, a lone
// hunk of removed and added lines matched as text with a fuzzy fallback,
// and re-indentation (seekpatch.go, textmatch.go, reindent.go).
//
// Deliberate choices where the format leaves room: files the FS refuses
// to change (read-only ones, say) are looked for before the first hunk
// runs, so that such a refusal changes nothing; past that, hunks are
// applied one after another and a failure leaves earlier hunks on disk
// (callers can observe partial application, as with the reference); a
// moved file keeps the source's mode, and the summary lists it as
// "M old -> new" (the reference names only the old path); an updated file
// keeps its byte-order mark and CRLF line endings (the reference would mix
// LF lines into a CRLF file); a chunk with neither added nor removed lines
// is rejected at parse time; Add File on a file that exists fails and
// leaves it alone, as omp's apply_patch does (the Codex applier would
// overwrite it).
package applypatch
