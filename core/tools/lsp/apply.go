package lsp

import (
	"context"
	"os"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/edits"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
)

// editOptions are the edits.Options for an edit cl's server computed:
// the session's read and write path and caches (env), the workspace root
// of the server, and what the client last sent it, so that a file changed
// since is refused.
func editOptions(env *tool.Env, cl *lsp.Client) edits.Options {
	return edits.EnvOptions(env, []string{cl.Root()}, cl.Document)
}

// ApplyEdit is the session's answer to a server's own
// workspace/applyEdit (the ManagerOptions.ApplyEdit of the session's
// manager): the edit is applied through env like the tool's own, all or
// nothing, and the asking server is told about the files it changed.
func ApplyEdit(env *tool.Env) lsp.ApplyEditFunc {
	return func(ctx context.Context, cl *lsp.Client, params protocol.ApplyWorkspaceEditParams) protocol.ApplyWorkspaceEditResult {
		opts := editOptions(env, cl)
		var written, gone []string
		onWrite, onRemove := opts.Written, opts.Removed
		opts.Written = func(abs string, data []byte) {
			written = append(written, abs)
			onWrite(abs, data)
		}
		opts.Removed = func(abs string) {
			gone = append(gone, abs)
			onRemove(abs)
		}
		out := edits.HandleApplyEdit(ctx, params, opts)
		if out.Applied {
			// Removed also hears a move's destination: what exists now
			// has new content, the rest is gone.
			var removed []string
			for _, p := range gone {
				if _, err := os.Lstat(p); err == nil {
					written = append(written, p)
				} else {
					removed = append(removed, p)
				}
			}
			_ = cl.Refresh(ctx, written, removed)
		}
		return out
	}
}

// touched splits the paths of res into those with new content and those
// gone (a move's source, a deleted path).
func touched(res edits.Result) (changed, removed []string) {
	for _, c := range res.Changes {
		switch c.Op {
		case edits.OpDelete:
			removed = append(removed, c.Path)
		case edits.OpRename:
			removed = append(removed, c.From)
		}
	}
	return res.Files(), removed
}

// apply applies edit, which the server of cl computed, and tells every
// running server about the files it changed.
func (c *call) apply(ctx context.Context, cl *lsp.Client, edit protocol.WorkspaceEdit) (edits.Result, error) {
	if c.t.beforeApply != nil {
		c.t.beforeApply()
	}
	res, err := edits.Apply(ctx, edit, editOptions(c.t.env, cl))
	if err != nil {
		return res, err
	}
	c.refresh(ctx, res)
	return res, nil
}

// refresh tells every running server about the files res changed.
func (c *call) refresh(ctx context.Context, res edits.Result) {
	changed, removed := touched(res)
	for _, other := range c.t.mgr.Running() {
		_ = other.Refresh(ctx, changed, removed)
	}
}
