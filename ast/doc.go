// Package ast is gopi's structural search and rewrite engine: the layer
// the ast_grep / ast_edit tools and `gopi ast` (package ast/astcli) are
// built on. Matching is done by ast-grep inside the native library
// (package native/astgrep); this package decides what to search and how
// to report it:
//
//   - a language registry with the canonical names of the reference
//     agent, aliases, and inference from file names (lang.go);
//   - candidate files from paths, directories and globs through the scan
//     cache, with hidden files on, gitignore on, and node_modules only
//     when a glob names it (candidates.go);
//   - per-language pattern compilation for mixed trees, batches searched
//     on every core (files of 1 MB or more first, on their own), results
//     in path then position order, streamed to the caller as files finish
//     (SearchRequest.OnMatch) or collected, offset/limit, parse issues
//     collected (search.go, run.go);
//   - the parse cache (a ParseCache value its owner, an agent session,
//     builds and hands over in Scope.ParseCache): parsed trees kept
//     between requests within a budget, dropped when the owner's tools
//     write files and invalidate it (cache.go);
//   - ast-grep rule files for `gopi ast scan` (rules.go): rules of plain
//     patterns through the pattern matcher, every other rule (kind,
//     inside, has, not, all, any, constraints, utils, transform, fix, ...)
//     whole through ast-grep's own rule engine, linked into the native
//     library; TestRuleConformanceCLI compares both with `sg scan`;
//   - rewrites: rules in pattern order, one language per call, a file's
//     rewrite refused when it would add a syntax error (the errors of a
//     file that already had some compared by place, syntax.go),
//     overlapping edits refused, edits applied end to start, files written
//     atomically only when they change, the scan cache invalidated
//     (edit.go).
//
// Where we differ from the ast-grep CLI on purpose:
//
//   - Files that cannot contain a rule's literal tokens (the text of every
//     identifier, keyword-like named leaf and literal in the pattern) are
//     skipped before parsing; the native side computes the tokens from the
//     compiled pattern, so this never changes the matches.
//   - Ambiguous Go patterns: tree-sitter-go parses `fmt.Errorf($$$A)` on
//     its own as a type conversion, which finds no call with two or more
//     arguments. The native compiler adds a second parse that forces a call
//     expression and matches with both (a node is reported once). See
//     native/src/ast/ambiguity.rs. Rules run by ast-grep's rule engine do
//     not get this second parse: they match as `sg scan` does.
//   - Lower-case metavariables (`$name`) in languages where `$` is not part
//     of identifiers are rejected with an error instead of silently matching
//     nothing.
package ast
