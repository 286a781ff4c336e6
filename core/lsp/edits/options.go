package edits

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// Options say where Apply may write, how it reads and writes, what the
// client told the servers, and who hears about the files it changed.
type Options struct {
	// Roots are the workspace roots (absolute). Every file an edit
	// touches must lie inside one of them once symbolic links are
	// resolved; none given refuses every edit.
	Roots []string
	// Display renders an absolute path for messages and summaries; nil
	// shows it as it is.
	Display func(abs string) string
	// ReadFile reads a file's bytes (an editor front end's buffer when it
	// has one); nil reads the disk.
	ReadFile func(ctx context.Context, abs string) ([]byte, error)
	// WriteFile replaces a file's bytes through the project's one write
	// path (tool.Env.WriteFile: atomic, mode and owner kept); nil writes
	// with internal/atomicfile. The parent directory exists.
	WriteFile func(ctx context.Context, abs string, data []byte, perm fs.FileMode) error
	// Documents returns what the client last sent the servers for the
	// file at abs (the version and the hash of the text), false when it
	// sent nothing. An edit computed against other content is refused.
	// nil: nothing is known, no edit is refused as stale.
	Documents func(abs string) (Document, bool)
	// Written is called after Apply wrote data to abs (an edited or a
	// created file), so the caller refreshes what it caches about it.
	Written func(abs string, data []byte)
	// Removed is called for every path Apply deleted or moved away (each
	// file under a directory too) and for the destination of a move, so
	// the caller forgets what it knew about them.
	Removed func(abs string)
}

// Document is what the client sent a server for one file: the version of
// its last didOpen or didChange and the hash of that text (HashText).
type Document struct {
	Version int  // the document version the server knows
	Hash    Hash // HashText of the text sent; the zero Hash: not known
}

// Hash is the SHA-256 of a document's text as sent to a server.
type Hash [sha256.Size]byte

// HashText is the hash of a document text as the client sent it: the
// file's bytes without a leading UTF-8 byte-order mark (a leading mark in
// text is dropped first, so a file's raw bytes hash the same).
func HashText(text []byte) Hash {
	return sha256.Sum256(bytes.TrimPrefix(text, bom))
}

// EnvOptions are the Options of a session's tools: reads and writes
// through env (an editor's buffers when it has Files, else the disk
// through the one write path), paths shown relative to its working
// directory, and after each change the read cache and the engine caches
// refreshed as the write and edit tools do. roots are the workspace
// roots; documents may be nil.
func EnvOptions(env *tool.Env, roots []string, documents func(abs string) (Document, bool)) Options {
	return Options{
		Roots:     roots,
		Display:   env.DisplayPath,
		ReadFile:  env.ReadFile,
		WriteFile: env.WriteFile,
		Documents: documents,
		Written: func(abs string, data []byte) {
			invalidate(env, abs)
			if env.ReadCache != nil {
				env.ReadCache.RecordText(abs, string(data))
			}
		},
		Removed: func(abs string) {
			invalidate(env, abs)
			if env.ReadCache != nil {
				env.ReadCache.Forget(abs)
			}
		},
	}
}

// invalidate drops abs from the engine caches, and the file a symbolic
// link at abs points to.
func invalidate(env *tool.Env, abs string) {
	env.Caches.Invalidate(abs)
	if target, err := atomicfile.Resolve(abs); err == nil && target != abs {
		env.Caches.Invalidate(target)
	}
}

// withDefaults fills the optional functions.
func (o Options) withDefaults() Options {
	if o.Display == nil {
		o.Display = func(abs string) string { return abs }
	}
	if o.ReadFile == nil {
		o.ReadFile = func(_ context.Context, abs string) ([]byte, error) { return os.ReadFile(abs) }
	}
	if o.WriteFile == nil {
		o.WriteFile = func(_ context.Context, abs string, data []byte, perm fs.FileMode) error {
			return atomicfile.WriteFile(abs, data, perm)
		}
	}
	if o.Documents == nil {
		o.Documents = func(string) (Document, bool) { return Document{}, false }
	}
	if o.Written == nil {
		o.Written = func(string, []byte) {}
	}
	if o.Removed == nil {
		o.Removed = func(string) {}
	}
	return o
}
