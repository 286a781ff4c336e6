// Package hashline computes the short line anchors that tie the agent's
// edits to the exact lines it has seen.
//
// Every line the read and search tools show the model carries an anchor: the
// line number followed by a two-letter hash of the line's content, as in
// `41th|def alpha():` (row format LINE + HASH + "|" + TEXT). The edit tool
// accepts only the `41th` token back and recomputes the hash from the file
// on disk; a different hash means the model is editing a line it has not
// seen in its current form, and the edit is refused instead of corrupting
// the file.
//
// # Hash
//
// The hash is omp's, so that a line carries the same anchor in gopi as in
// omp 14.9.9 and a session can move between the two agents. The hash of
// line n with text t is:
//
//  1. every '\r' is removed from t and trailing white space is trimmed as
//     JavaScript's trimEnd does, so anchors survive CRLF conversion and
//     whitespace-only changes at the end of a line (invalid UTF-8 is first
//     decoded to U+FFFD as JavaScript reads it, see AppendDecoded);
//  2. h = XXH32(t) with seed 0 when t holds a letter or digit (Unicode
//     categories L and N); otherwise the seed is n, so that the many
//     identical "}" or blank lines of a file get different anchors and an
//     anchor for one of them cannot silently land on another;
//  3. the anchor letters are Bigrams[h mod 647], omp's table.
//
// The table and the anchors of a fixed corpus are locked by golden tests,
// and omp's own output (testdata/omp-vectors.jsonl) by TestOmpVectors:
// changing either breaks every anchor a model has ever been shown.
//
// # Anchor references
//
// ParseAnchor and ParseRange read the tokens an edit names (`41th`,
// `41th..45qz`); the edit language itself lives with the edit tool.
package hashline
