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
// The hash of line n with text t is computed as follows:
//
//  1. every '\r' is removed from t and trailing white space is trimmed, so
//     anchors survive CRLF conversion and whitespace-only changes at the end
//     of a line;
//  2. h = XXH3-64(t) when t holds at least one letter or digit; otherwise
//     h = XXH3-64 with seed n, so that the many identical "}" or blank lines
//     of a file get different anchors and an anchor for one of them cannot
//     silently land on another;
//  3. the anchor letters are Bigrams[h mod 647].
//
// XXH3 (github.com/zeebo/xxh3) is fast on short inputs and stable across
// platforms and releases, so anchors never change under the agent's feet.
// The 647-entry table is ours and frozen: see Bigrams for the principle that
// picks the 29 pairs it leaves out. The table and the anchors of a fixed
// corpus are locked by golden tests; changing either breaks every anchor a
// model has ever been shown and must never happen.
//
// # Anchor references
//
// ParseAnchor and ParseRange read the tokens an edit names (`41th`,
// `41th..45qz`); the edit language itself lives with the edit tool.
package hashline
