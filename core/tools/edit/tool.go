// Package edit is the edit tool: it changes files in one of five input
// modes, chosen per session by the edit.mode setting or PI_EDIT_VARIANT.
//
//   - hashline (default): an anchored patch language naming lines by the
//     anchors read and search show (package hashedit);
//   - replace: old text / new text, exact first, then tolerant of white
//     space (package replace);
//   - patch: {path, edits: [{op, rename, diff}]}, diff hunks for one file
//     per call, located and applied as omp does (package applypatch);
//   - apply_patch: the Codex "*** Begin Patch" envelope, each file section
//     of it one patch-mode operation run by the same applier;
//   - vim: vim keys and ex commands on a buffer kept open across calls
//     (package vim), saved after each call.
//
// The modes share the file plumbing (files.go): a file keeps its
// byte-order mark and line-ending style, writes are atomic and keep the
// file's mode, every write invalidates the filesystem scan cache, and the
// session read cache is refreshed with the new text so that it stays the
// base for recovering later stale-anchor edits. A Jupyter notebook is
// edited, in every mode, as the cell text read shows (notebook.go).
// Results carry a compact
// preview (the new anchors, in hashline mode) in their text and a unified
// diff in their details. The tool is exclusive and cannot be aborted
// midway: a batch is checked completely before anything is written.
package edit

import (
	"context"

	"github.com/gopi-agent/gopi/core/tool"
)

// Tool is the edit tool bound to a session.
type Tool struct {
	env  *tool.Env
	mode tool.EditMode
	diag *diagnosed  // during a call (on the call's copy): the files it writes, checked by the language servers
	read *readStamps // during a call (on the call's copy): the stat of each file as read, checked before it is replaced
	vim  *vimBuffers // vim mode: the session's open buffers, shared by every call
}

// New returns the edit tool for env in the mode its settings select.
// Modes this build does not implement (atom) fall back to
// hashline, and env's setting is corrected to match, so that read and
// search show the anchors this tool then expects.
func New(env *tool.Env) tool.Tool {
	t := NewMode(env, env.Settings.EditMode)
	env.Settings.EditMode = t.mode
	return t
}

// NewMode returns the edit tool in an explicit mode (see New).
func NewMode(env *tool.Env, mode tool.EditMode) *Tool {
	switch mode {
	case tool.EditReplace, tool.EditPatch, tool.EditApplyPatch:
	case tool.EditVim:
		return &Tool{env: env, mode: mode, vim: &vimBuffers{open: map[string]*vimBuffer{}}}
	default:
		mode = tool.EditHashline
	}
	return &Tool{env: env, mode: mode}
}

// Mode returns the input mode the tool takes.
func (t *Tool) Mode() tool.EditMode { return t.mode }

// Definition describes the tool in its mode.
func (t *Tool) Definition() tool.Definition {
	def := tool.Definition{
		Name:         "edit",
		Label:        "Edit",
		Concurrency:  tool.Exclusive,
		NonAbortable: true,
	}
	switch t.mode {
	case tool.EditReplace:
		def.Description = replaceDescription
		def.Parameters = replaceSchema()
	case tool.EditPatch:
		def.Description = patchDescription
		def.Parameters = patchSchema()
	case tool.EditVim:
		def.Description = vimDescription
		def.Parameters = vimSchema()
	case tool.EditApplyPatch:
		def.Description = applyPatchDescription
		def.Parameters = tool.Object(map[string]*tool.Schema{
			"input": {Type: "string", MinLength: tool.Ptr(1), Description: "The whole patch, from *** Begin Patch to *** End Patch"},
		}, "input")
	default:
		def.Description = hashlineDescription(t.env.Settings.Separator())
		def.Parameters = tool.Object(map[string]*tool.Schema{
			"input": {Type: "string", MinLength: tool.Ptr(1), Description: "One or more @@ PATH sections of edit operations"},
		}, "input")
	}
	def.Parameters.AdditionalProperties = tool.Ptr(false)
	return def
}

// Execute runs one edit call. The files it writes are checked by the
// session's language servers once they are all written and unlocked;
// what the servers find is appended to the result.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	call := &Tool{env: t.env, mode: t.mode, diag: &diagnosed{env: t.env}, vim: t.vim}
	if t.env.Files == nil {
		call.read = &readStamps{}
	}
	res, err := call.run(args)
	if err != nil {
		return nil, err
	}
	call.diag.attach(ctx, res)
	return res, nil
}

// run decodes the arguments of the tool's mode and applies them.
func (t *Tool) run(args tool.Args) (*tool.Result, error) {
	switch t.mode {
	case tool.EditReplace:
		var a replaceModeArgs
		if err := args.Decode(&a); err != nil {
			return nil, err
		}
		return t.runReplace(a)
	case tool.EditPatch:
		var a patchModeArgs
		if err := args.Decode(&a); err != nil {
			return nil, err
		}
		return t.runPatch(a)
	case tool.EditVim:
		var a vimArgs
		if err := args.Decode(&a); err != nil {
			return nil, err
		}
		return t.runVim(a)
	case tool.EditApplyPatch:
		var a struct {
			Input string `json:"input"`
		}
		if err := args.Decode(&a); err != nil {
			return nil, err
		}
		return t.runApplyPatch(a.Input)
	default:
		var a struct {
			Input string `json:"input"`
		}
		if err := args.Decode(&a); err != nil {
			return nil, err
		}
		return t.runHashline(a.Input)
	}
}

// Details is the structured part of an edit result.
type Details struct {
	Mode             string       `json:"mode"`                       // hashline, replace, patch, apply_patch or vim
	Diff             string       `json:"diff,omitempty"`             // unified diff of every file changed
	FirstChangedLine int          `json:"firstChangedLine,omitempty"` // first changed line of the (first) file, 1-based
	Op               string       `json:"op,omitempty"`               // create, update or delete (single file)
	Path             string       `json:"path,omitempty"`             // the file (single file)
	Warnings         []string     `json:"warnings,omitempty"`         // everything fixed up along the way
	PerFileResults   []FileResult `json:"perFileResults,omitempty"`   // one per file when several changed
	// Diagnostics is what the language servers reported about the files
	// written, when a server handles them and answered in the budget.
	Diagnostics *tool.FileDiagnostics `json:"diagnostics,omitempty"`
}

// FileResult is the outcome for one file of a multi-file edit.
type FileResult struct {
	Path             string                `json:"path"`
	Op               string                `json:"op"`
	Diff             string                `json:"diff,omitempty"`
	FirstChangedLine int                   `json:"firstChangedLine,omitempty"`
	Diagnostics      *tool.FileDiagnostics `json:"diagnostics,omitempty"` // this file's share of Details.Diagnostics
	// IsError marks a file whose operation failed (apply_patch mode, where
	// the others still run); ErrorText is why.
	IsError   bool   `json:"isError,omitempty"`
	ErrorText string `json:"errorText,omitempty"`
}
