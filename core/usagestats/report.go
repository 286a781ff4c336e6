package usagestats

import (
	"cmp"
	"encoding/json"
	"slices"
)

// ModelRow is one model's totals.
type ModelRow struct {
	ModelKey
	*Totals
}

// FolderRow is one project folder's totals.
type FolderRow struct {
	Folder string
	*Totals
}

// ToolRow is how often one tool was called.
type ToolRow struct {
	Tool  string `json:"tool"`
	Calls int64  `json:"calls"`
}

// Models lists the models, most requests first (then by name).
func (r *Report) Models() []ModelRow {
	rows := make([]ModelRow, 0, len(r.ByModel))
	for k, t := range r.ByModel {
		rows = append(rows, ModelRow{k, t})
	}
	slices.SortFunc(rows, func(a, b ModelRow) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.Model, b.Model))
	})
	return rows
}

// Folders lists the project folders, most requests first (then by path).
func (r *Report) Folders() []FolderRow {
	rows := make([]FolderRow, 0, len(r.ByFolder))
	for k, t := range r.ByFolder {
		rows = append(rows, FolderRow{k, t})
	}
	slices.SortFunc(rows, func(a, b FolderRow) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Folder, b.Folder))
	})
	return rows
}

// ToolCalls lists the tools called, most calls first (then by name).
func (r *Report) ToolCalls() []ToolRow {
	rows := make([]ToolRow, 0, len(r.Tools))
	for k, n := range r.Tools {
		rows = append(rows, ToolRow{k, n})
	}
	slices.SortFunc(rows, func(a, b ToolRow) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Tool, b.Tool))
	})
	return rows
}

// totalsJSON is Totals with the rates and averages omp's JSON carries
// (null where nothing was recorded).
type totalsJSON struct {
	*Totals
	Successful         int64    `json:"successfulRequests"`
	ErrorRate          float64  `json:"errorRate"`
	CacheRate          float64  `json:"cacheRate"`
	AvgDuration        *float64 `json:"avgDuration"`
	AvgTTFT            *float64 `json:"avgTtft"`
	AvgTokensPerSecond *float64 `json:"avgTokensPerSecond"`
}

func toJSON(t *Totals) totalsJSON {
	opt := func(v float64, ok bool) *float64 {
		if !ok {
			return nil
		}
		return &v
	}
	return totalsJSON{
		Totals: t, Successful: t.Requests - t.Failed, ErrorRate: t.ErrorRate(), CacheRate: t.CacheRate(),
		AvgDuration: opt(t.AvgDuration()), AvgTTFT: opt(t.AvgTTFT()), AvgTokensPerSecond: opt(t.AvgTokensPerSecond()),
	}
}

// MarshalJSON writes the report as `gopi stats --json` prints it: files
// and sessions, overall totals, then byModel, byFolder and byTool lists in
// the order of Models, Folders and ToolCalls.
func (r *Report) MarshalJSON() ([]byte, error) {
	type modelJSON struct {
		Model    string `json:"model"`
		Provider string `json:"provider"`
		totalsJSON
	}
	type folderJSON struct {
		Folder string `json:"folder"`
		totalsJSON
	}
	type unreadableJSON struct {
		Path   string `json:"path"`
		Reason string `json:"reason"`
	}
	out := struct {
		Files      int              `json:"files"`
		Sessions   int              `json:"sessions"`
		Unreadable int              `json:"unreadable"`
		Skipped    []unreadableJSON `json:"unreadableFiles"`
		Overall    totalsJSON       `json:"overall"`
		ByModel    []modelJSON      `json:"byModel"`
		ByFolder   []folderJSON     `json:"byFolder"`
		ByTool     []ToolRow        `json:"byTool"`
	}{Files: r.Files, Sessions: r.Sessions, Unreadable: r.Unreadable, Skipped: []unreadableJSON{},
		Overall: toJSON(&r.Overall), ByModel: []modelJSON{}, ByFolder: []folderJSON{}, ByTool: r.ToolCalls()}
	for _, u := range r.UnreadableFiles {
		out.Skipped = append(out.Skipped, unreadableJSON{u.Path, u.Reason})
	}
	for _, m := range r.Models() {
		out.ByModel = append(out.ByModel, modelJSON{m.Model, m.Provider, toJSON(m.Totals)})
	}
	for _, f := range r.Folders() {
		out.ByFolder = append(out.ByFolder, folderJSON{f.Folder, toJSON(f.Totals)})
	}
	return json.Marshal(out)
}
