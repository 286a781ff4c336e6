// Package astcli runs the four `gopi ast` commands — grep, edit, run and
// scan — once their flags are resolved, and prints what they find: a plain
// options value per command (the scope, the pattern or rules, the output
// form, the limits; nothing read from flags or the environment here) and
// an Output with the writers go in; an exit status and an error to report
// come out. cmd/gopi keeps the flag sets, the help texts and the choices
// that need the configuration (the default file cap of a rewrite, the
// scan cache of the process).
//
// The outputs:
//
//   - grep-style text: each line of a match as PATH:LINE:TEXT, context
//     lines as PATH-LINE-TEXT, "--" between groups that do not touch
//     (printer.go), printed match by match while the search streams;
//   - `ast grep --json`: one object per match per line, written without
//     reflection (jsonline.go) and held byte for byte equal to
//     encoding/json over the same value (json.go) by a test and a fuzz
//     target;
//   - `ast run` / `ast scan --json`: ast-grep's own objects (its language
//     names, character counts, replacements, rule ids, severities and
//     labels) in its three styles, pretty, compact and stream;
//   - rewrites as -old/+new lines with a summary, and a preview id that
//     `ast edit --apply --expect ID` checks so that what is written is what
//     was reviewed (edit.go);
//   - warnings (missing paths, parse issues, rewrites refused for a syntax
//     error) on the error writer, at most astIssueLines of each kind.
//
// Exit statuses follow grep: ExitMatch when something matched (or was
// replaced), ExitNoMatch when nothing did, ExitError on an error; `ast
// scan` returns ExitNoMatch when a rule of severity error matched, as
// ast-grep does.
package astcli
