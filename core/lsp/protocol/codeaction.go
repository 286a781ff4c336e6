package protocol

import (
	"encoding/json"
	"errors"
)

// Command is a command a server can run for the client
// (workspace/executeCommand).
type Command struct {
	Title     string            `json:"title"`
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// CodeActionDisabled says why a server offers a code action it would not
// apply now.
type CodeActionDisabled struct {
	Reason string `json:"reason"`
}

// CodeActionParams are the parameters of textDocument/codeAction.
type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

// CodeActionContext is what a codeAction request knows of the place: the
// diagnostics there and, optionally, the kinds of action wanted.
type CodeActionContext struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Only        []string     `json:"only,omitempty"`
	TriggerKind int          `json:"triggerKind,omitempty"` // 1: asked for explicitly
}

// CodeAction is one entry of a textDocument/codeAction answer, which
// lists code actions and bare commands side by side. Bare tells a bare
// Command (its Command is then the entry itself); Raw is the entry as the
// server sent it, to hand back in codeAction/resolve.
type CodeAction struct {
	Title       string
	Kind        string
	IsPreferred bool
	Disabled    *CodeActionDisabled
	Edit        *WorkspaceEdit
	Command     *Command
	Bare        bool
	Raw         json.RawMessage
}

// UnmarshalJSON decodes a code action or a bare command: an entry whose
// "command" is a string is a Command, one whose "command" is an object
// (or absent) is a CodeAction.
func (a *CodeAction) UnmarshalJSON(data []byte) error {
	var probe struct {
		Title       string              `json:"title"`
		Kind        string              `json:"kind"`
		IsPreferred bool                `json:"isPreferred"`
		Disabled    *CodeActionDisabled `json:"disabled"`
		Edit        *WorkspaceEdit      `json:"edit"`
		Command     json.RawMessage     `json:"command"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return err
	}
	*a = CodeAction{Title: probe.Title, Kind: probe.Kind, IsPreferred: probe.IsPreferred,
		Disabled: probe.Disabled, Edit: probe.Edit, Raw: append(json.RawMessage(nil), data...)}
	if len(probe.Command) == 0 || string(probe.Command) == "null" {
		return nil
	}
	var name string
	if json.Unmarshal(probe.Command, &name) == nil {
		var c Command
		if err := json.Unmarshal(data, &c); err != nil {
			return err
		}
		a.Command, a.Bare = &c, true
		return nil
	}
	var c Command
	if err := json.Unmarshal(probe.Command, &c); err != nil {
		return err
	}
	if c.Command == "" {
		return errors.New("code action command has no command name")
	}
	a.Command = &c
	return nil
}
