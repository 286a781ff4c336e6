// Package vim is the modal editing engine behind the edit tool's vim mode
// (PI_EDIT_VARIANT=vim): a buffer of lines with a cursor, NORMAL and INSERT
// modes, counts, motions, operators, undo, search and a few ex commands,
// driven by the key sequences a model sends ("3Go", "dd", ":%s/a/b/g<CR>").
//
// The engine does no I/O: loading, saving and rendering belong to the
// tool, which keeps one Engine per file for the session. Keys outside the
// supported set fail with "Unsupported command: X" and leave the buffer as
// the keys before them left it; the tool reports where.
package vim
