package tokens

import (
	"encoding/json"
	"fmt"
	"io"
)

// FileCount is the count of one input.
type FileCount struct {
	Path   string `json:"path"` // as given; "-" for standard input
	Bytes  int    `json:"bytes"`
	Tokens int    `json:"tokens"`
}

// Report is the count of several inputs, as `gopi tokens --json` prints
// it.
type Report struct {
	Encoding string      `json:"encoding"`
	Model    string      `json:"model,omitempty"`
	Ratio    float64     `json:"ratio,omitempty"` // set when the counts are estimates
	Files    []FileCount `json:"files"`           // the inputs counted, in order
	Bytes    int         `json:"bytes"`
	Tokens   int         `json:"tokens"`
}

// WriteJSON writes r as one line of JSON. The error is the encoder's:
// as with WriteText, a failed write is w's to notice.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n", b)
	return nil
}

// WriteText writes r as "COUNT PATH" lines, the counts aligned, then a
// total when there are several inputs and, for estimates, the ratio they
// were scaled by.
func (r *Report) WriteText(w io.Writer) {
	width := len(fmt.Sprint(r.Tokens))
	for _, f := range r.Files {
		fmt.Fprintf(w, "%*d %s\n", width, f.Tokens, f.Path)
	}
	if len(r.Files) > 1 {
		fmt.Fprintf(w, "%*d total\n", width, r.Tokens)
	}
	if r.Ratio != 0 {
		fmt.Fprintf(w, "(estimate for %s: %s count × %g)\n", r.Model, r.Encoding, r.Ratio)
	}
}
