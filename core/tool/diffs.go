package tool

import "encoding/json"

// FileDiff is the diff of one file an edit reported.
type FileDiff struct {
	Path string // the file; "" when the edit named one file only
	Diff string // unified or numbered diff lines
}

// EditDiffs returns the diffs a tool result's details carry: edit's
// {diff} for one file, or {perFileResults:[{path,diff}]} for several.
// details may be the tool's own struct (a live result) or the decoded
// JSON of a stored one; anything without a diff gives nil.
func EditDiffs(details any) []FileDiff {
	if details == nil {
		return nil
	}
	var d struct {
		Path           string `json:"path"`
		Diff           string `json:"diff"`
		PerFileResults []struct {
			Path string `json:"path"`
			Diff string `json:"diff"`
		} `json:"perFileResults"`
	}
	raw, ok := details.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(details); err != nil {
			return nil
		}
	}
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	if len(d.PerFileResults) > 1 {
		var out []FileDiff
		for _, f := range d.PerFileResults {
			if f.Diff != "" {
				out = append(out, FileDiff{Path: f.Path, Diff: f.Diff})
			}
		}
		return out
	}
	if d.Diff == "" {
		return nil
	}
	return []FileDiff{{Path: d.Path, Diff: d.Diff}}
}
