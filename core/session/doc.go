// Package session is the session store: one conversation kept as a tree of
// entries in a JSONL file, in the format omp writes (version 3), so a
// session started by either program can be continued by the other. It is
// pure data and files — no provider, no goroutines left running.
//
// # The file
//
// Line 1 is the header {type:"session",version:3,id,timestamp,cwd,…}; every
// other line is an entry {type,id,parentId,timestamp,…} (message,
// model_change, thinking_level_change, compaction, branch_summary, custom,
// custom_message, label, …; see Entry). Files live in
// <sessions root>/--<cwd encoded>--/<timestamp>_<session id>.jsonl (see
// Locations), images of 1 KiB or more in a content-addressed blob store
// (BlobStore), spilled tool output beside the file (Manager.Artifacts).
//
// Every entry keeps the bytes it was stored with (Entry.Raw): a rewrite
// (migration, rename, merge) writes unchanged entries back byte for byte,
// so fields and entry types this version does not model — omp's
// providerPayload, a newer program's entry types — survive. Lines that
// cannot be used are reported (Manager.Problems) and kept in place.
// Older files are migrated on load (v1: ids and a linear parent chain,
// firstKeptEntryIndex → firstKeptEntryId; v2: role hookMessage → custom)
// and rewritten once; a file of a newer version, or one whose first line
// is not a header, is refused and left alone.
//
// # The tree
//
// Appends become children of the leaf and the new leaf; Branch moves the
// leaf (Branch("") makes the next append a root), BranchWithSummary branches
// and records what was left. BuildContext walks from the leaf to the root
// and returns the messages the model sees (the latest compaction's summary
// first, then the entries it kept, then the newer ones) and the state in
// force there (thinking level, models by role, mode, …). Agent-level
// messages come from package core/message; message.ToLLM turns the
// context into provider messages. TreeRows lays the tree out as the rows
// of a tree selector (the branch holding the leaf first), filtered
// (default, no-tools, user-only, labeled-only, all) and searched; Fork
// copies the path to an entry into a new file (/branch).
//
// # Persistence
//
// Nothing is written before the first assistant message (a session that
// never got an answer leaves no file); then the whole session is written
// and each later entry appended as one write of one line, fsynced unless
// SyncOnFlush is chosen. Before an entry is written, strings over
// MaxPersistChars are cut with TruncationNotice, transient members
// (partialJson, jsonlEvents) dropped and large images moved to the blob
// store as blob:sha256:<hash> (restored on load). The first write error is
// latched: the session keeps working in memory and every later call that
// writes returns that error (Manager.Err).
//
// Several processes may use one file: every write happens under an
// exclusive flock, a writer that finds the file replaced reopens it, an
// append after a torn last line (a writer killed mid-line) starts on a new
// line, and a rewrite re-reads the file under the lock and merges — lines
// it does not know, such as entries another process appended, are kept in
// their place. Rewrites go through tool.WriteFileAtomic (temporary file
// beside the target, fsync, rename).
//
// # Loading fast
//
// A session file is mostly long strings. Loading validates each line and
// reads its envelope in one hand-written pass (jsonscan.go) that scans
// strings eight bytes at a time, on all CPUs, and decodes the small
// payloads (settings changes, compactions, labels, …). Messages, nearly
// all of the bytes, are decoded when first needed (lazy.go): at load those
// of the context at the leaf (from the latest compaction's kept part on),
// the others when an accessor hands them out; ContextPath and SelectPath
// answer the runtime's questions about the path without decoding the
// conversation the compactions replaced. Decoding a message does its
// content in one pass (fastmsg.go) and leaves the small rest to core/ai.
// Fuzz targets check the scanner against encoding/json, the fast decoder
// against message.Decode, and the store with messages decoded on demand
// against the store with every message decoded (FuzzLazyLoad). Resuming a
// 40,000-entry, 50 MB session is measured end to end by bench/session.sh.
package session
