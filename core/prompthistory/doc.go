// Package prompthistory keeps the prompts a user sent, across sessions
// and projects, in omp's format: an SQLite file (history.db in the agent
// directory) with a history table (id, prompt, created_at in Unix
// seconds, cwd) and its FTS5 index, so the interactive mode's Up/Down and
// Ctrl+R search reach prompts of earlier runs.
//
// A prompt equal to the one stored last is not stored again (omp skips
// the same repeat). Prompts are trimmed. The file is opened with one
// connection, WAL journaling and a busy timeout, so two gopi processes
// appending at once wait for each other instead of failing. History is a
// convenience: the mode treats a store that cannot be opened as absent.
package prompthistory
