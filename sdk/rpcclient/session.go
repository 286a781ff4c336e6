package rpcclient

import (
	"context"
	"encoding/json"
)

// Session files, the session tree and handoff.

// NewSession starts an empty session; parent, when set, is recorded as its
// parentSession. cancelled reports that an extension refused it.
func (c *Client) NewSession(ctx context.Context, parent string) (cancelled bool, err error) {
	fields := map[string]any{}
	if parent != "" {
		fields["parentSession"] = parent
	}
	return c.cancelled(ctx, "new_session", fields)
}

// SwitchSession continues the session file at path.
func (c *Client) SwitchSession(ctx context.Context, path string) (cancelled bool, err error) {
	return c.cancelled(ctx, "switch_session", map[string]any{"sessionPath": path})
}

func (c *Client) cancelled(ctx context.Context, typ string, fields map[string]any) (bool, error) {
	r, err := c.Call(ctx, typ, fields)
	if err != nil {
		return false, err
	}
	var d struct {
		Cancelled bool `json:"cancelled"`
	}
	return d.Cancelled, json.Unmarshal(r.Data, &d)
}

// BranchMessage is a user message a session can branch from.
type BranchMessage struct {
	EntryID string `json:"entryId"`
	Text    string `json:"text"`
}

// BranchMessages lists the user messages of the session, oldest first.
func (c *Client) BranchMessages(ctx context.Context) ([]BranchMessage, error) {
	r, err := c.Call(ctx, "get_branch_messages", nil)
	if err != nil {
		return nil, err
	}
	var d struct {
		Messages []BranchMessage `json:"messages"`
	}
	return d.Messages, json.Unmarshal(r.Data, &d)
}

// Branch starts a new session file from the user message entryID: it holds
// the conversation up to just before it; text is the message's text (for
// the host's editor).
func (c *Client) Branch(ctx context.Context, entryID string) (text string, cancelled bool, err error) {
	r, err := c.Call(ctx, "branch", map[string]any{"entryId": entryID})
	if err != nil {
		return "", false, err
	}
	var d struct {
		Text      string `json:"text"`
		Cancelled bool   `json:"cancelled"`
	}
	err = json.Unmarshal(r.Data, &d)
	return d.Text, d.Cancelled, err
}

// HandoffResult is a completed handoff.
type HandoffResult struct {
	Document    string `json:"document"`            // the document the model wrote
	SessionFile string `json:"sessionFile"`         // the new session's file
	SavedPath   string `json:"savedPath,omitempty"` // a saved copy, for automatic handoffs
}

// Handoff has the model write a handoff document and continues in a new
// session that starts with it; instructions (optional) say what to focus
// on. A nil result without error means the model wrote nothing and the
// session is unchanged.
func (c *Client) Handoff(ctx context.Context, instructions string) (*HandoffResult, error) {
	fields := map[string]any{}
	if instructions != "" {
		fields["customInstructions"] = instructions
	}
	r, err := c.Call(ctx, "handoff", fields)
	if err != nil {
		return nil, err
	}
	var d *HandoffResult
	return d, json.Unmarshal(r.Data, &d)
}

// TreeRow is one row of the session tree (get_tree).
type TreeRow struct {
	EntryID   string  `json:"entryId"`
	ParentID  *string `json:"parentId"`
	Type      string  `json:"type"`      // the entry type
	Kind      string  `json:"kind"`      // the message role, or the entry type
	Label     string  `json:"label"`     // the entry's label, if any
	Text      string  `json:"text"`      // one line describing the entry
	Indent    int     `json:"indent"`    // nesting level (three columns each)
	Connector bool    `json:"connector"` // draw ├─ or └─ before it
	Last      bool    `json:"last"`      // └─ rather than ├─
	Gutters   []struct {
		Level int  `json:"level"`
		Line  bool `json:"line"`
	} `json:"gutters"` // │ columns of the forks above
	Active bool `json:"active"` // on the path to the leaf
	Leaf   bool `json:"leaf"`   // the leaf
}

// Tree returns the session tree as rows, filtered ("default", "no-tools",
// "user-only", "labeled-only", "all"; "" is default) and searched.
func (c *Client) Tree(ctx context.Context, filter, search string) (leafID string, rows []TreeRow, err error) {
	r, err := c.Call(ctx, "get_tree", map[string]any{"filter": filter, "search": search})
	if err != nil {
		return "", nil, err
	}
	var d struct {
		LeafID *string   `json:"leafId"`
		Rows   []TreeRow `json:"rows"`
	}
	if err := json.Unmarshal(r.Data, &d); err != nil {
		return "", nil, err
	}
	if d.LeafID != nil {
		leafID = *d.LeafID
	}
	return leafID, d.Rows, nil
}

// NavigateResult is what NavigateTree did.
type NavigateResult struct {
	EditorText   string          `json:"editorText"`   // the picked user message's text
	Cancelled    bool            `json:"cancelled"`    // cancelled by an extension or aborted
	Aborted      bool            `json:"aborted"`      // the summary was aborted
	SummaryEntry json.RawMessage `json:"summaryEntry"` // the branch_summary entry written, if any
}

// NavigateTree moves the session's leaf to entryID in the same file;
// summarize asks for a summary of the branch left (instructions replace
// the default ones).
func (c *Client) NavigateTree(ctx context.Context, entryID string, summarize bool, instructions string) (*NavigateResult, error) {
	r, err := c.Call(ctx, "navigate_tree", map[string]any{"entryId": entryID, "summarize": summarize, "customInstructions": instructions})
	if err != nil {
		return nil, err
	}
	var d NavigateResult
	return &d, json.Unmarshal(r.Data, &d)
}

// SetLabel sets (or with "" clears) the label of an entry.
func (c *Client) SetLabel(ctx context.Context, entryID, label string) error {
	_, err := c.Call(ctx, "set_label", map[string]any{"entryId": entryID, "label": label})
	return err
}

// ExportHTML has the agent write the session as one HTML page and returns
// the path written; outputPath "" takes the default name in the agent's
// working directory.
func (c *Client) ExportHTML(ctx context.Context, outputPath string) (string, error) {
	fields := map[string]any{}
	if outputPath != "" {
		fields["outputPath"] = outputPath
	}
	r, err := c.Call(ctx, "export_html", fields)
	if err != nil {
		return "", err
	}
	var d struct {
		Path string `json:"path"`
	}
	return d.Path, json.Unmarshal(r.Data, &d)
}

// MCPServer is one MCP server as get_mcp_servers reports it.
type MCPServer struct {
	Name      string   `json:"name"`                // the configured name
	Type      string   `json:"type"`                // stdio, http or sse
	Source    string   `json:"source"`              // the file that defined it
	State     string   `json:"state"`               // idle, connecting, connected, failed or closed
	Error     string   `json:"error,omitempty"`     // why it failed
	Server    string   `json:"server,omitempty"`    // name and version the server reported
	Tools     []string `json:"tools"`               // the tool names offered to the model
	Resources bool     `json:"resources,omitempty"` // it offers resources (mcp://<name>/…)
	Warnings  []string `json:"warnings,omitempty"`  // how its tools' schemas were changed for providers, which tools were left out
}

// MCPStatus is get_mcp_servers' answer.
type MCPStatus struct {
	Servers  []MCPServer `json:"servers"`            // every configured server
	Errors   []string    `json:"errors,omitempty"`   // configuration problems
	Disabled []string    `json:"disabled,omitempty"` // names turned off by disabledServers
}

// MCPServers lists the session's MCP servers, their state and tools, and
// the problems found in the mcp.json files (gopi's get_mcp_servers).
func (c *Client) MCPServers(ctx context.Context) (*MCPStatus, error) {
	r, err := c.Call(ctx, "get_mcp_servers", nil)
	if err != nil {
		return nil, err
	}
	var st MCPStatus
	if err := json.Unmarshal(r.Data, &st); err != nil {
		return nil, err
	}
	return &st, nil
}
