// Package hashedit implements the hashline edit language: edits that name
// lines by the anchors read and search showed the model ("41th"), so an
// edit can only land on lines the model has seen in their current form.
//
//	@@ src/a.ts
//	= 4fb..5dm
//	~const clean = (name || DEF).trim();
//	+ 9qx
//	~export {clean};
//
// An input holds one or more "@@ PATH" sections (any run of '@' is
// accepted; an absolute path inside the working directory becomes
// relative). Ops are "+ A" (insert after), "< A" (insert before), "- A..B"
// (delete) and "= A..B" (replace), with A a line anchor or, for inserts,
// BOF/EOF; payload lines start with the edit separator ("~", or PI_HL_SEP).
// An optional "*** Begin Patch"/"*** End Patch" envelope is ignored and
// "*** Abort" ends the input early with a warning.
//
// Lines are the text split at every '\n', as omp numbers them: the empty
// line after a final line break has an anchor too.
//
// Parse reads the input; Apply checks every anchor before changing
// anything — a range is checked at its two ends — and splices the edits by
// original line number, so later ops never need renumbering. A stale
// anchor yields a MismatchError that reprints the current lines around
// it; Recover then tries to replay the edit on the snapshot the model last
// saw and merge it onto the current file with a fuzz factor of 3. Preview
// renders a result compactly with the new anchors.
package hashedit
