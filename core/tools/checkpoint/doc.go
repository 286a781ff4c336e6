// Package checkpoint is the checkpoint and rewind tools: the model marks
// the conversation before an exploration (checkpoint), explores, and
// ends it with a report (rewind); the session then drops the exploration
// from the context the model sees and keeps the report in its place.
//
// The tools only move the session's State (one per top-level session, see
// state.go) through its steps; the session (core/agentsession) anchors a
// new checkpoint at the end of the turn that made it and applies a
// requested rewind at the end of the turn that asked for it, by branching
// the session file back to the anchor with the report as a branch summary.
// Nothing on disk is restored: files, git state and processes stay as the
// exploration left them.
package checkpoint
