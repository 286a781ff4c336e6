package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/edits"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
)

// MaxRenameFiles is how many files rename_file moves at once: the servers
// are asked about each one.
const MaxRenameFiles = 1000

// fileRename is one file of a rename_file: its URI before and after.
type fileRename struct {
	OldURI protocol.DocumentURI `json:"oldUri"`
	NewURI protocol.DocumentURI `json:"newUri"`
}

// serverEdit is the edit one server wants made before a move.
type serverEdit struct {
	name string      // the server's
	cl   *lsp.Client // its client: what it was sent
	edit protocol.WorkspaceEdit
}

// renameFile moves a file or directory and lets every language server
// update what refers to it (imports): willRenameFiles to each non-linter
// server, their edits and the move applied as one (all or nothing),
// didClose of the moved documents they had open, then didRenameFiles.
func (c *call) renameFile(ctx context.Context) *tool.Result {
	if c.file == "" || c.a.NewName == nil || *c.a.NewName == "" {
		return c.fail("", "Error: rename_file requires both `file` (source path) and `new_name` (destination path)")
	}
	env := c.t.env
	source, dest := env.Resolve(c.file), env.Resolve(*c.a.NewName)
	if source == dest {
		return c.fail("", "Error: source and destination are the same path: "+env.DisplayPath(source))
	}
	info, err := os.Stat(source)
	if err != nil {
		return c.fail("", "Error: source path does not exist: "+env.DisplayPath(source))
	}
	if _, err := os.Lstat(dest); err == nil {
		return c.fail("", "Error: destination already exists: "+env.DisplayPath(dest)+"; choose a new path or remove it first")
	}
	pairs, err := renamePairs(source, dest, info.IsDir(), MaxRenameFiles)
	if err != nil {
		return c.fail("", "Error: "+err.Error())
	}
	if len(pairs) == 0 {
		return c.fail("", "Error: no files to rename under "+env.DisplayPath(source))
	}
	label := env.DisplayPath(source)
	if info.IsDir() {
		noun := "files"
		if len(pairs) == 1 {
			noun = "file"
		}
		label = fmt.Sprintf("%d %s under %s", len(pairs), noun, label)
	}
	destLabel := env.DisplayPath(dest)

	params := map[string]any{"files": pairs}
	asked := c.willRename(ctx, params)
	answered := asked.answered
	found, skipped := disjointEdits(asked.found)
	notes := append(asked.notes, skipped...)

	if c.a.Apply != nil && !*c.a.Apply {
		lines := []string{"Rename preview: " + label + " → " + destLabel}
		if len(found) == 0 {
			lines = append(lines, "  No language server edits would be applied")
		}
		for _, f := range found {
			lines = append(lines, "  "+f.name+":", indent(edits.Preview(f.edit, env.DisplayPath), "    "))
		}
		return c.ok(strings.Join(answered, ", "), withNotes(lines, notes))
	}

	// The servers' edits, then the move, in one Apply: refused or undone
	// together.
	var changes []protocol.DocumentChange
	for _, f := range found {
		changes = append(changes, edits.Sequence(f.edit)...)
	}
	changes = append(changes, protocol.DocumentChange{Rename: &protocol.RenameFile{
		Kind: "rename", OldURI: protocol.FileURI(source), NewURI: protocol.FileURI(dest)}})
	opts := edits.EnvOptions(env, []string{c.t.mgr.Root()}, joinDocuments(found))
	if c.t.beforeApply != nil {
		c.t.beforeApply()
	}
	res, err := edits.Apply(ctx, protocol.WorkspaceEdit{DocumentChanges: changes}, opts)
	if err != nil {
		return c.fail(strings.Join(answered, ", "), "Error: "+err.Error())
	}
	lines := []string{"Renamed " + label + " → " + destLabel}
	lines = append(lines, serverSummaries(res, found, env.DisplayPath)...)

	notes = append(notes, announceMove(ctx, asked.clients, pairs, res, params)...)
	return c.ok(strings.Join(answered, ", "), withNotes(lines, notes))
}

// renameAnswers are what the servers said to willRenameFiles.
type renameAnswers struct {
	clients  []*lsp.Client // the servers running, to be told of the move
	answered []string      // the names of those that answered
	found    []serverEdit  // the non-empty edits they asked for
	notes    []string      // "  <server>: <error>" for those that failed
}

// willRename asks every non-linter server for the edits a move needs
// (workspace/willRenameFiles), after bringing the documents it has open in
// step with their files. A server without the method is passed over in
// silence; other failures become notes.
func (c *call) willRename(ctx context.Context, params any) renameAnswers {
	var out renameAnswers
	for _, s := range c.primaries() {
		if ctx.Err() != nil {
			break
		}
		cl, err := c.client(ctx, s)
		if err == nil {
			out.clients = append(out.clients, cl)
			if err = cl.SyncOpen(ctx); err == nil {
				err = cl.WaitProjectLoaded(ctx)
			}
		}
		var edit *protocol.WorkspaceEdit
		if err == nil {
			err = cl.Request(ctx, "workspace/willRenameFiles", params, &edit)
		}
		switch {
		case err == nil:
			out.answered = append(out.answered, s.Name)
			if edit != nil && len(edits.Sequence(*edit)) > 0 {
				out.found = append(out.found, serverEdit{s.Name, cl, *edit})
			}
		case !lsp.IsMethodNotFound(err):
			out.notes = append(out.notes, "  "+s.Name+": "+err.Error())
		}
	}
	return out
}

// announceMove tells the servers about a move made: the documents at the
// old paths closed, the files the edit changed synchronised, then
// workspace/didRenameFiles. It returns notes for the servers that failed.
func announceMove(ctx context.Context, clients []*lsp.Client, pairs []fileRename, res edits.Result, params any) []string {
	var olds, notes []string
	for _, p := range pairs {
		if old, err := p.OldURI.Path(); err == nil {
			olds = append(olds, old)
		}
	}
	changed, _ := touched(res)
	for _, cl := range clients {
		err := cl.Refresh(ctx, changed, olds)
		if err == nil {
			err = cl.Notify(ctx, "workspace/didRenameFiles", params)
		}
		if err != nil {
			notes = append(notes, "  "+cl.Name()+": "+err.Error())
		}
	}
	return notes
}

// withNotes joins lines and, when there are any, the servers' notes.
func withNotes(lines, notes []string) string {
	if len(notes) > 0 {
		lines = append(append(lines, "  Server notes:"), notes...)
	}
	return strings.Join(lines, "\n")
}

// renamePairs lists the files a rename_file moves: the file itself, or
// every regular file under the directory, at most limit.
func renamePairs(source, dest string, dir bool, limit int) ([]fileRename, error) {
	if !dir {
		return []fileRename{{protocol.FileURI(source), protocol.FileURI(dest)}}, nil
	}
	var pairs []fileRename
	errTooMany := fmt.Errorf("%s holds more than %d files; rename_file moves at most that many at once, so move it in parts", source, limit)
	err := filepath.WalkDir(source, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if len(pairs) == limit {
			return errTooMany
		}
		rel, _ := filepath.Rel(source, p)
		pairs = append(pairs, fileRename{protocol.FileURI(p), protocol.FileURI(filepath.Join(dest, rel))})
		return nil
	})
	if err != nil && !errors.Is(err, errTooMany) {
		err = fmt.Errorf("cannot list the files under %s: %w", source, err)
	}
	return pairs, err
}

// disjointEdits keeps the servers' edits that touch files no earlier
// server's edit touches: each edit was computed on the files as they are
// now, so two of one file cannot be applied one after the other. The
// edits left out are named in notes.
func disjointEdits(found []serverEdit) (kept []serverEdit, notes []string) {
	owner := map[protocol.DocumentURI]string{}
	for _, f := range found {
		clash := ""
		uris := editURIs(f.edit)
		for _, u := range uris {
			if o, ok := owner[u]; ok {
				clash = o
				break
			}
		}
		if clash != "" {
			notes = append(notes, "  "+f.name+": its edits were left out: "+clash+" also edits those files, and two edits of one file cannot be joined")
			continue
		}
		for _, u := range uris {
			owner[u] = f.name
		}
		kept = append(kept, f)
	}
	return kept, notes
}

// editURIs are the URIs an edit changes.
func editURIs(edit protocol.WorkspaceEdit) []protocol.DocumentURI {
	var out []protocol.DocumentURI
	for _, ch := range edits.Sequence(edit) {
		switch {
		case ch.Edit != nil:
			out = append(out, ch.Edit.TextDocument.URI)
		case ch.Create != nil:
			out = append(out, ch.Create.URI)
		case ch.Rename != nil:
			out = append(out, ch.Rename.OldURI, ch.Rename.NewURI)
		case ch.Delete != nil:
			out = append(out, ch.Delete.URI)
		}
	}
	return out
}

// joinDocuments is the Documents function of edits that several servers
// computed: each file as the server whose edit changes it was sent it
// (the edits are disjoint).
func joinDocuments(found []serverEdit) func(abs string) (edits.Document, bool) {
	return func(abs string) (edits.Document, bool) {
		u := protocol.FileURI(abs)
		for _, f := range found {
			for _, e := range editURIs(f.edit) {
				if e == u {
					return f.cl.Document(abs)
				}
			}
		}
		return edits.Document{}, false
	}
}

// serverSummaries are the lines of an applied rename_file: each server's
// changes under its name, then the move.
func serverSummaries(res edits.Result, found []serverEdit, display func(string) string) []string {
	var lines []string
	rest := res
	for _, f := range found {
		mine := map[string]bool{}
		for _, u := range editURIs(f.edit) {
			if p, err := u.Path(); err == nil {
				mine[p] = true
			}
		}
		var part, other edits.Result
		for _, ch := range rest.Changes {
			if mine[ch.Path] && (ch.Op != edits.OpRename || mine[ch.From]) {
				part.Changes = append(part.Changes, ch)
			} else {
				other.Changes = append(other.Changes, ch)
			}
		}
		rest = other
		if len(part.Changes) > 0 {
			lines = append(lines, "  "+f.name+":", indent(strings.Join(part.Summary(display), "\n"), "    "))
		}
	}
	return append(lines, indent(strings.Join(rest.Summary(display), "\n"), "  "))
}
