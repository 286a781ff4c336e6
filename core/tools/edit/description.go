package edit

import (
	"strings"

	"github.com/gopi-agent/gopi/core/hashline"
)

// hashlineDescription is the model-facing description of hashline mode,
// with the payload separator sep. Its worked example carries real
// anchors, so that copying them is exactly what the model sees read do.
func hashlineDescription(sep string) string {
	return strings.NewReplacer(
		"SEP", sep,
		"A12", hashline.Anchor(12, exampleLines[0]),
		"A13", hashline.Anchor(13, exampleLines[1]),
		"A14", hashline.Anchor(14, exampleLines[2]),
	).Replace(`Edit files by naming lines with the anchors that read and search print: the token before "|"
(e.g. 41th in "41th|    return x"). Write one section per file:

@@ path/to/file
OPERATIONS

Operations (A and B are anchors; BOF and EOF are the file's start and end):
  + A       insert the payload lines after line A (or at BOF/EOF)
  < A       insert the payload lines before line A
  - A..B    delete lines A through B (one line: - A..A)
  = A..B    replace lines A through B with the payload (no payload: one empty line)
Payload lines follow their operation, each starting with SEP: "SEPtext" puts "text" in the file as is,
indentation included; "SEP" alone is an empty line.

Example. read showed:
A12|func add(a, b int) int {
A13|	return a - b
A14|}
This input fixes line 13 and adds a function after line 14:
@@ calc.go
= A13..A13
SEP	return a + b
+ A14
SEP
SEPfunc zero() int { return 0 }

Rules:
- Copy anchors exactly from the latest read, search or edit output for the file. An operation line
  holds only the operation and its anchors, never line text; this is not a unified diff (no
  "@@ -1,3 +1,4 @@" hunks, no "+" or "-" content lines).
- Every anchor refers to the file as you last read it; do not renumber after earlier operations in
  the same call. Several sections for the same file are combined the same way.
- All anchors are checked before anything is written. If the file changed, nothing is written and
  the current lines are shown with fresh anchors: retry with those.
- Only list the lines you change; the rest of the file stays as it is. Do not repeat the line
  before or after a range inside its payload. The tool does not know the language: let a range
  cover whole statements or blocks, so that the payload is balanced.
- Several files in one call are applied all together or not at all. A new file can be created
  with "+ BOF".
- The result shows the changed lines with their new anchors; use those for a follow-up edit
  instead of reading the file again.`)
}

// exampleLines are lines 12 to 14 of the file in the hashline example.
var exampleLines = [3]string{"func add(a, b int) int {", "\treturn a - b", "}"}

const replaceDescription = `Change one file by replacing text: path names the file, edits lists the replacements,
each {"old_text": ..., "new_text": ...}, made in order (each sees what the ones before wrote).
- Copy old_text from the file as read, without line-number or anchor prefixes, and keep it as short
  as it can be while occurring only once; when it occurs several times the replacement fails and
  shows where. Add surrounding lines to tell the places apart, or set "all": true to replace each.
- When the exact text is absent, a match differing only in white space is accepted and new_text is
  re-indented to fit.
- A replacement that fails leaves the file as it was for that entry and is reported; the others are
  still made. Read the file before editing it.
- To create a file or rewrite it completely, use the write tool.

Example: {"path": "app.py", "edits": [{"old_text": "print('Hi')", "new_text": "print('Hello')"}]}`

const applyPatchDescription = `Edit files with a patch in this format (paths relative to the working directory):

*** Begin Patch
*** Add File: path/new.txt
+every line of the new file, each starting with +
*** Delete File: path/old.txt
*** Update File: path/app.py
*** Move to: path/main.py        (optional rename)
@@ def greet():                   (optional: a line that precedes the change, to locate it)
 context line (starts with a space)
-removed line
+added line
*** End Patch

Show about 3 lines of context above and below each change; when context alone is ambiguous, add a
"@@ line" naming a line before the change (several, outermost first, to narrow it down). Use
"*** End of File" after a chunk that ends at the end of the file. Add File writes the whole file
(replacing one that exists). Each file is changed on its own: if one fails, it is left as it was,
the result says why, and the other files are still changed.`
