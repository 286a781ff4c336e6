package edit

import "strings"

// hashlineDescription is the model-facing description of hashline mode,
// with the payload separator sep.
func hashlineDescription(sep string) string {
	return strings.ReplaceAll(`Edit files by naming lines with the anchors that read and search print (the token before "|", e.g. 41th).
Write one section per file:

@@ path/to/file
OPERATIONS

Operations (A and B are anchors; BOF and EOF are the file's start and end):
  + A       insert the payload lines after line A (or at BOF/EOF)
  < A       insert the payload lines before line A
  - A..B    delete lines A through B (one line: - A..A)
  = A..B    replace lines A through B with the payload (no payload: one empty line)
Payload lines follow their operation, each starting with SEP: "SEPtext" puts "text" in the file as is,
indentation included; "SEP" alone is an empty line.

Rules:
- Every anchor refers to the file as you last read it; do not renumber after earlier operations in
  the same call. Several sections for the same file are combined the same way.
- All anchors are checked before anything is written. If the file changed, nothing is written and
  the current lines are shown with fresh anchors: retry with those.
- Only list the lines you change; the rest of the file stays as it is. Do not repeat the line
  before or after a range inside its payload.
- Several files in one call are applied all together or not at all. A new file can be created
  with "+ BOF".
- The result shows the changed lines with their new anchors; use those for a follow-up edit
  instead of reading the file again.`, "SEP", sep)
}

const replaceDescription = `Edit a file by replacing text. old_text is found in the file and replaced by new_text.
- Copy old_text from the file exactly, without line-number or anchor prefixes, and include enough
  surrounding lines for it to occur only once; otherwise the edit fails and lists where it matched.
- If the exact text is not found, a match that differs only in white space is accepted and
  new_text is re-indented to fit.
- Set all to true to replace every occurrence.
- To create a file or rewrite it completely, use the write tool.`

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

Show about 3 lines of context above and below each change; use one or more "@@ line" markers when
context alone is ambiguous. Chunks of one file must appear in file order. Use "*** End of File"
after a chunk that ends at the end of the file. Operations are applied in order; if one fails, the
ones before it stay applied.`
