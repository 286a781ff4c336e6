// Package fuzzy ranks the paths under a directory by how well they match a
// short query whose characters must appear in order ("hsrv" finds
// net/http/server.go), scoring the entries of the shared filesystem scan
// (package fscache) rather than walking the tree.
//
// # Score
//
// An alignment assigns each query character to a position in the path,
// strictly left to right, where the characters are equal (smart case: the
// comparison ignores case unless the query contains an upper-case letter).
// The score of an alignment p₀ < p₁ < … is
//
//	Σ  ScoreMatch + bonus(pᵢ) (×FirstCharMultiplier for i = 0) + basename(pᵢ)
//	+ Σ  BonusConsecutive                         when pᵢ = pᵢ₋₁+1
//	− Σ  GapStart + GapExtend·(pᵢ − pᵢ₋₁ − 2)      otherwise
//
// and the score of a path is the best over all alignments. The constants:
//
//   - ScoreMatch (16) pays for each matched character, so longer queries
//     that match score higher and the bonuses stay secondary.
//   - BonusSlash (10): the character starts a path segment (after '/', or
//     at the very start). Segment starts are what people type first.
//   - BonusDelimiter (8): the character follows '_', '-', '.', ' ' or other
//     punctuation, i.e. starts a word inside a name.
//   - BonusCamel (7): a lower→upper ("fooBar") or letter→digit ("utf8")
//     transition; a word start that is slightly less certain.
//   - FirstCharMultiplier (2): the first query character's boundary bonus
//     counts twice, because where a match begins says the most about intent.
//   - BonusBasename (3): each character matched in the last path segment,
//     so the file name outranks the same letters spread over directories.
//   - BonusConsecutive (6): adjacent matches, so typing a substring finds
//     it; larger than the gap cost, so a run beats two scattered halves.
//   - GapStart (3) and GapExtend (1): an affine gap penalty, so one long
//     jump costs less than several short ones, as with typed abbreviations.
//
// # Algorithm
//
// Finding the best alignment is a Smith-Waterman-style dynamic program over
// query index i and path position j: cell (i, j) is the best score of the
// first i+1 query characters with character i at j. It extends either the
// cell (i-1, j-1) with the consecutive bonus, or the best earlier cell of
// row i-1 minus the affine gap, and that running maximum is carried along
// the row (it loses GapExtend per step), so a row costs O(width) and the
// whole score O(len(query) × width) with two rows of scratch.
//
// Most paths do not contain the query at all, so Score first runs a
// subsequence check over the raw bytes (no decoding for ASCII), then limits
// the DP to the window from the first occurrence of the first query
// character to the last occurrence of the last one. Score allocates nothing
// once the caller's Scratch has grown; Positions, which keeps the whole
// table to trace one best alignment back, runs only for returned results.
//
// # Finding
//
// Find scores files and directories alike (node_modules is never walked),
// splitting the scan into contiguous chunks across GOMAXPROCS goroutines
// when it is large, each keeping its own top-k heap. Results are ordered by
// score, then shorter path, then path. The scan cache is opt-in; with it,
// a non-empty query that matched nothing on a scan at least
// Policy().EmptyRecheck old triggers one stored rescan.
package fuzzy
