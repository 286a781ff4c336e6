// Package compaction keeps long conversations inside the model's context
// window: it replaces the older part of a session's path with a summary
// written by the model, and trims old tool output before that is needed.
// It is the pure part of omp's context maintenance — deciding, cutting,
// prompting, merging — with no provider, no goroutines left running and no
// session writes; package agentsession runs it (when, with which model,
// with which events and hooks) and stores the result.
//
// # When
//
// A session compacts when the context of the last successful response
// exceeds Threshold: thresholdTokens when positive (kept below the
// window), else thresholdPercent of the window when positive, else the
// window minus a reserve of max(15% of the window, reserveTokens). Both
// overrides default to -1. Before that check, PlanPrune replaces old tool
// output with "[Output truncated - N tokens]": the newest 40,000 tokens of
// tool output stay, read and skill results are never touched, and nothing
// is pruned unless at least 20,000 tokens are saved. Only output the model
// is still sent counts: what the latest compaction summarised is left as
// it is.
//
// # Where to cut
//
// Prepare cuts only among the entries after the previous compaction; the
// messages that compaction kept verbatim leave the context with this one,
// so they are summarised too (omp drops them unsummarised). Walking
// back from the newest, it adds up message sizes until keepRecentTokens is
// reached (scaled down by how much the provider's real count exceeds our
// estimate, when a response reported usage) and cuts at the nearest
// allowed entry at or after that point: a user, assistant, shell-run,
// custom, summary message or a custom_message / branch_summary entry —
// never a tool result, so a tool call is kept with its results. Settings
// changes, labels and other entries just before the cut move into the kept
// part. A cut that is not at the start of a user turn splits the turn: the
// turn's beginning is summarised on its own and appended to the history
// summary under a "Turn Context (split turn)" heading.
//
// # Summaries
//
// Summaries are written by the model from a plain-text transcript
// (Serialize; long tool results are cut to 2,000 characters) wrapped in
// <conversation>…</conversation>, after the previous compaction's summary
// in <previous-summary>…</previous-summary> when there is one (then the
// model updates it rather than starting over), with any hook context in
// <additional-context>. The prompts are this package's own wording
// (prompts.go). Generate asks for the history summary (and the turn
// prefix summary, in parallel), then a two- or three-sentence short
// summary, and appends the files the summarised part read and changed as
// <read-files> and <modified-files> tags (carried over from the previous
// compaction unless an extension wrote it). A history or turn-prefix
// answer without text fails the compaction (ErrEmptySummary) rather than
// store a summary that stands for nothing.
//
// # Token counts
//
// Counter counts with package tokens: exactly for OpenAI models, with a
// per-family ratio over o200k_base for the rest. A conversation far larger
// than the kept part is sized by counting its newest megabyte exactly and
// extrapolating by bytes, so choosing a cut point costs the same for a
// 100-entry and a 10,000-entry session.
package compaction
