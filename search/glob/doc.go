// Package glob compiles glob patterns and finds the paths under a directory
// that match one, filtering the shared filesystem scan (package fscache)
// instead of walking the tree itself.
//
// # Syntax
//
// A pattern is matched against the whole slash-separated path relative to
// the search root, case-sensitively (CompileFold and Options.IgnoreCase
// ignore case):
//
//   - any run of characters except '/', including none
//     ?       exactly one character except '/'
//     [abc]   one character from the set; ranges a-z; [!…] or [^…] negates.
//     A ']' right after the opening bracket (or the negation mark) is a
//     member; '\' escapes inside. A class never matches '/'.
//     {a,b}   alternation; branches may be empty, nest, and contain '/' and
//     any other syntax ({src/**/*.go,cmd/*})
//     **      as a whole segment: zero or more path segments (**/*.go matches
//     a.go and x/y/a.go; a/**/b matches a/b). As the last segment it
//     needs at least one segment, so a/** matches everything under a
//     but not a itself. "**" inside a segment (a**b) is just '*'.
//     \c      the character c literally ("\/" is a plain separator)
//
// There is no implicit recursion: *.go matches only direct children of the
// root. (The find tool prefixes bare patterns with **/.) Compile reports an
// unclosed '[' or '{', a trailing '\' or invalid UTF-8 as a *SyntaxError
// that names the pattern and the byte position.
//
// # Matching
//
// Compile expands braces up front into brace-free alternatives (bounded by
// maxAlternatives), splits each on '/' into segments, and records the
// longest literal suffix common to all of them. Match rejects on that suffix
// first (one comparison rules out nearly every path for "**/*.go"), then
// runs each alternative through a two-level wildcard matcher: globstars
// against path segments, and '*' against characters within a segment. Both
// levels keep only the most recent star as a backtracking point, which is
// complete for this language and makes Match linear-ish and allocation-free.
// Expansion was chosen over an automaton because real patterns have one or
// a handful of alternatives, and it keeps the "whole segment" rule for **
// simple: it is decided on each expanded alternative, so {a/,}** behaves
// like a/** or **.
//
// # Finding
//
// Find resolves the root with fscache.ResolveSearchPath, obtains a scan
// (the cache is opt-in; without it the walk is not stored), and filters the
// entries in scan order: depth-first, siblings sorted. node_modules is
// walked only when the pattern mentions it or Options.NodeModules is set
// (the CLI sets it, as fd has no such rule; the agent's tools do not). When the cache is on and a scan
// at least Policy().EmptyRecheck old yields no match, Find rescans once, so
// a file created a moment ago is not hidden by a stale cached negative.
package glob
