// Package write is the write tool: it creates or replaces a whole file,
// a member of an archive (archive.go) or a row of a SQLite database
// (sqlite.go), as the path says (package innerpath reads it: an archive
// member path first, then a database one, then a plain file).
//
// Parent directories are created as needed; the file is replaced
// through internal/atomicfile: atomically (temporary file in the same
// directory, then rename), through symbolic links, keeping an existing
// file's mode and owner, refusing read-only and hard-linked files, under
// the file's cross-process lock. A file outside the working directory is
// written with a warning in the result. Afterwards the filesystem scan cache
// drops its entries for the path, the session's read cache records the
// new text, since the model now knows the file exactly, and the language
// servers that handle the file are asked about it (lsp.diagnosticsOnWrite):
// what they report within the budget is appended to the result.
package write

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/generated"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

const description = `Create a file, or replace the whole content of an existing one. Missing parent directories
are created. Use it for new files and complete rewrites; to change part of an existing file,
use the edit tool instead. "~" is your home directory; relative paths start in the working directory.
Inside an archive (.zip, .tar, .tar.gz, .tgz): a.zip:dir/f.txt stores content as that member,
replacing or adding it and leaving the other members as they are (a missing archive is created).
In a SQLite database (.db, .db3, .sqlite, .sqlite3) that exists: app.db:TABLE inserts a row given as a
JSON5 object of column values, e.g. {name: "Ada", age: 36}; app.db:TABLE:KEY sets the given columns on
the row whose primary key (or rowid) is KEY, and with empty content deletes that row.`

// Tool is the write tool bound to a session.
type Tool struct{ env *tool.Env }

// New returns the write tool for env.
func New(env *tool.Env) tool.Tool { return &Tool{env: env} }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "write",
		Label:       "Write",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"path":    {Type: "string", MinLength: tool.Ptr(1), Description: "File to create or replace"},
			"content": tool.String("The complete new content of the file"),
		}, "path", "content"),
		Concurrency: tool.Shared,
	}
}

// Details is the structured part of a write result.
type Details struct {
	Path string `json:"path,omitempty"` // absolute path of the file written ("" for an archive member or a row)
	// Op is what was done: "create" or "update" for a file or an archive
	// member, "insert", "update" or "delete" for a row.
	Op    string `json:"op"`
	Lines int    `json:"lines,omitempty"` // lines in the new content (files and members)
	Bytes int    `json:"bytes,omitempty"` // bytes written (files and members)
	// Archive and Entry name the archive file (absolute) and the member
	// written in it.
	Archive string `json:"archive,omitempty"`
	Entry   string `json:"entry,omitempty"`
	// Database, Table and Key name the database file (absolute), the
	// table and the row key of a row write; Rows is how many rows changed.
	Database string `json:"database,omitempty"`
	Table    string `json:"table,omitempty"`
	Key      string `json:"key,omitempty"`
	Rows     int    `json:"rows,omitempty"`
	// Warnings, such as the file lying outside the working directory.
	Warnings []string `json:"warnings,omitempty"`
	// Diagnostics is what the language servers reported about the file,
	// when a server handles it and answered in the budget.
	Diagnostics *tool.FileDiagnostics `json:"diagnostics,omitempty"`
}

// Execute writes the file.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	p := strings.TrimSpace(a.Path)
	if p == "" {
		return nil, tool.Errorf("Path must not be empty; give the file to write.")
	}
	if scheme, h, ok := t.env.HostURI(p); ok {
		if !scheme.Writable {
			return nil, tool.Errorf("Cannot write %s: %s:// URLs are read-only here.", p, scheme.Scheme)
		}
		if err := h.WriteURI(ctx, p, a.Content); err != nil {
			return nil, tool.Errorf("Cannot write %s: %v", p, err)
		}
		return tool.TextResult(fmt.Sprintf("Wrote %s (%d bytes).", p, len(a.Content)), map[string]any{"path": p, "op": "host"}), nil
	}
	content, stripped := t.stripAnchors(a.Content)
	res, err := t.writeContent(ctx, p, content)
	if err == nil && res != nil && stripped {
		res.AppendText("\n" + strippedNote)
	}
	return res, err
}

// strippedNote is added to the result when the content's anchors were
// removed before writing.
const strippedNote = "Note: the hashline anchors (LINE+ID|) copied from a read were removed from the content before writing."

// stripAnchors returns content without the anchors a read showed, and
// true, when the session shows them (hashline display) and every
// non-empty line carries one, as omp's write does (see
// hashline.StripDisplayPrefixes); else content as it is.
func (t *Tool) stripAnchors(content string) (string, bool) {
	if t.env.DisplayMode(false, false) != tool.DisplayHashline {
		return content, false
	}
	return hashline.StripDisplayPrefixes(content)
}

// writeContent writes content to the file, archive member or database
// row p names.
func (t *Tool) writeContent(ctx context.Context, p, content string) (*tool.Result, error) {
	at, err := t.findArchiveTarget(p)
	if err != nil {
		return nil, err
	}
	if at != nil {
		return t.writeArchive(ctx, at, content)
	}
	dt, err := t.findDatabaseTarget(p)
	if err != nil {
		return nil, err
	}
	if dt != nil {
		return t.writeRow(ctx, p, dt, content)
	}
	if err := t.env.CheckLocal(p); err != nil {
		return nil, err
	}
	abs := t.env.Resolve(p)
	if err := t.env.CheckPlanWrite(abs); err != nil {
		return nil, err
	}
	res, wd, changed, err := t.write(ctx, abs, content)
	if err != nil {
		return nil, err
	}
	// The file is unlocked by now: the servers read it while another
	// writer may go on.
	if fd := wd.After(ctx, changed); fd != nil {
		res.Details.(*Details).Diagnostics = fd
		res.AppendText(fd.Notice())
	}
	return res, nil
}

// write replaces the file at abs under its lock and returns the result,
// the diagnostics check begun before the write (nil when off) and, for
// it, the lines the new content changed.
func (t *Tool) write(ctx context.Context, abs, content string) (*tool.Result, *tool.WriteDiag, []tool.LineSpan, error) {
	display := t.env.DisplayPath(abs)
	// The lock orders this write with edits of the same file running
	// meanwhile (here or in another process): an edit reads either the
	// old content or this one, and never writes over this one unseen.
	unlock, err := atomicfile.Lock(abs)
	if err != nil {
		return nil, nil, nil, tool.Errorf("Cannot write %s: %v", display, err)
	}
	defer unlock()
	op := "update"
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		op = "create"
	case err != nil:
		return nil, nil, nil, tool.Errorf("Cannot write %s: %v", display, pathErr(err))
	case info.IsDir():
		return nil, nil, nil, tool.Errorf("Cannot write %s: it is a directory; give a file path.", display)
	default:
		if err := atomicfile.Writable(abs, display); err != nil {
			return nil, nil, nil, tool.Errorf("%v", err)
		}
		if t.env.Settings.BlockAutoGenerated {
			var ge *generated.Error
			if err := generated.CheckFile(abs, display); errors.As(err, &ge) {
				return nil, nil, nil, tool.Errorf("%v", err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, nil, nil, tool.Errorf("Cannot create the directory for %s: %v", display, pathErr(err))
	}
	wd := t.env.BeginDiagnostics(abs, "write", tool.WriteWhole)
	var changed []tool.LineSpan
	if wd != nil && op == "update" {
		if old, err := os.ReadFile(abs); err == nil { // as the servers knew it
			changed = changedLines(string(old), content)
		}
	}
	if err := t.env.WriteFile(ctx, abs, []byte(content), 0o644); err != nil {
		return nil, nil, nil, tool.Errorf("Cannot write %s: %v", display, pathErr(err))
	}
	t.env.Caches.Invalidate(abs)
	if t.env.ReadCache != nil {
		t.env.ReadCache.RecordText(abs, content)
	}
	lines := len(hashline.SplitLines(strings.TrimPrefix(content, "\uFEFF")))
	verb := "Updated"
	if op == "create" {
		verb = "Created"
	}
	text := fmt.Sprintf("%s %s (%s)", verb, display, lineCount(lines))
	details := &Details{Path: abs, Op: op, Lines: lines, Bytes: len(content)}
	if w := t.env.OutsideCwdWarning(abs); w != "" {
		details.Warnings = []string{w}
		text += "\n\nWarnings:\n" + w
	}
	return tool.TextResult(text, details), wd, changed, nil
}

// changedLines returns the lines of new that differ from old, as the
// span between their common first and last lines (nil when equal).
func changedLines(old, new string) []tool.LineSpan {
	a, b := strings.Split(old, "\n"), strings.Split(new, "\n")
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	if pre == len(a) && pre == len(b) {
		return nil
	}
	first, last := pre, len(b)-1-suf
	if last < first {
		// Lines were only removed: the two now around the gap.
		first, last = max(pre-1, 0), pre
	}
	return []tool.LineSpan{{First: first, Last: last}}
}

func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
