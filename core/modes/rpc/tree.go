package rpc

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/session"
)

// The session tree over RPC: gopi's additions to omp's commands, for hosts
// that draw a /tree selector.
//
//	get_tree{filter?, search?}  → {leafId, rows:[{entryId, parentId, type, kind, label?, text, indent, connector, last, gutters, active, leaf}]}
//	navigate_tree{entryId, summarize?, customInstructions?} → {editorText?, cancelled, aborted?, summaryEntry?}
//	set_label{entryId, label}   → null ("" clears the label)

// treeRow is one row of get_tree.
type treeRow struct {
	EntryID   string           `json:"entryId"`
	ParentID  *string          `json:"parentId"`
	Type      string           `json:"type"`
	Kind      string           `json:"kind"`
	Label     string           `json:"label,omitempty"`
	Text      string           `json:"text"`
	Indent    int              `json:"indent"`
	Connector bool             `json:"connector"`
	Last      bool             `json:"last"`
	Gutters   []session.Gutter `json:"gutters"`
	Active    bool             `json:"active"`
	Leaf      bool             `json:"leaf"`
}

// getTreeArgs are the fields of a get_tree frame.
type getTreeArgs struct {
	Filter string `json:"filter"`
	Search string `json:"search"`
}

func cmdGetTree(_ context.Context, srv *server, _ json.RawMessage, f *getTreeArgs) (any, error) {
	filter, err := session.ParseTreeFilter(f.Filter)
	if err != nil {
		return nil, err
	}
	rows := srv.s.Tree().Rows(session.TreeQuery{Filter: filter, Search: f.Search})
	out := make([]treeRow, len(rows))
	for i, r := range rows {
		var parent *string
		if p := r.Entry.ParentID; p != "" {
			parent = &p
		}
		gutters := r.Gutters
		if gutters == nil {
			gutters = []session.Gutter{}
		}
		out[i] = treeRow{EntryID: r.Entry.ID, ParentID: parent, Type: r.Entry.Type, Kind: r.Kind, Label: r.Label, Text: r.Text,
			Indent: r.Indent, Connector: r.Connector, Last: r.Last, Gutters: gutters, Active: r.Active, Leaf: r.Leaf}
	}
	var leaf *string
	if id := srv.s.Store().LeafID(); id != "" {
		leaf = &id
	}
	return map[string]any{"leafId": leaf, "rows": out}, nil
}

// cmdNavigateTree moves the leaf. With a summary it runs in the background
// (abort stops it and nothing changes).
// navigateTreeArgs are the fields of a navigate_tree frame.
type navigateTreeArgs struct {
	EntryID            string `json:"entryId"`
	Summarize          bool   `json:"summarize"`
	CustomInstructions string `json:"customInstructions"`
}

func cmdNavigateTree(ctx context.Context, srv *server, id json.RawMessage, f *navigateTreeArgs) (any, error) {
	if f.EntryID == "" {
		return nil, errors.New(`"entryId" is required (get_tree lists the entries)`)
	}
	if srv.s.Turn().IsStreaming() {
		return nil, errors.New("cannot navigate while the agent is working: wait for agent_end, or send abort first")
	}
	opts := agentsession.NavigateOptions{Summarize: f.Summarize, CustomInstructions: f.CustomInstructions}
	if !f.Summarize {
		return srv.s.Tree().Navigate(ctx, f.EntryID, opts)
	}
	srv.background(ctx, id, "navigate_tree", func(ctx context.Context) (any, error) {
		return srv.s.Tree().Navigate(ctx, f.EntryID, opts)
	})
	return skipResponse, nil
}

// setLabelArgs are the fields of a set_label frame.
type setLabelArgs struct {
	EntryID string `json:"entryId"`
	Label   string `json:"label"`
}

func cmdSetLabel(_ context.Context, srv *server, _ json.RawMessage, f *setLabelArgs) (any, error) {
	if f.EntryID == "" {
		return nil, errors.New(`"entryId" is required`)
	}
	return nil, srv.s.Tree().SetLabel(f.EntryID, f.Label)
}
