package tool

import "encoding/json"

// ResultError is the "error" member of a result's details (live, or as a
// session file holds them), "" when there is none. web_search reports a
// failed search as text with the failure there, as omp does; front ends
// use it to draw such a result as failed.
func ResultError(details any) string {
	if details == nil {
		return ""
	}
	raw, ok := details.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(details); err != nil {
			return ""
		}
	}
	var d struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(raw, &d)
	return d.Error
}
