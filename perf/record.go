package perf

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Record is one measured series: every sample of one metric of one tool in
// one case of one area. It is the line format of bench/results/*.jsonl and
// of `gopi bench --json`.
type Record struct {
	Area    string    `json:"area"`           // benchmark area (bench/<area>.sh), or "user" for gopi bench
	Case    string    `json:"case"`           // what was done, e.g. "grep goroot/literal -c"
	Tool    string    `json:"tool"`           // who did it: gopi, rg, fd, ast-grep, omp, …
	Metric  string    `json:"metric"`         // wall, cpu, rss, …
	Unit    string    `json:"unit"`           // ms, MiB, tokens/s, …
	Samples []float64 `json:"samples"`        // every measured value, in run order
	Pair    string    `json:"pair,omitempty"` // a tool whose samples of this case alternated with these, index by index
	Lower   bool      `json:"lower"`          // a lower value is better (times, memory)
	Source  string    `json:"source"`         // how the samples were taken: alternated, hyperfine, gobench, table
	Machine string    `json:"machine"`        // cores, CPU model, memory, kernel
	Load    float64   `json:"load"`           // 1-minute load average when measured (-1 unknown)
	Commit  string    `json:"commit"`         // the measured tree's commit ("" outside git; "+dirty" suffix)
	Date    string    `json:"date"`           // UTC, RFC 3339
}

// Key names the series a record belongs to across runs and commits.
func (r Record) Key() string {
	return r.Area + "\x00" + r.Case + "\x00" + r.Tool + "\x00" + r.Metric
}

// Validate reports what makes a record unusable.
func (r Record) Validate() error {
	var missing []string
	for _, f := range []struct{ name, v string }{{"area", r.Area}, {"case", r.Case}, {"tool", r.Tool}, {"metric", r.Metric}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("record without %s", strings.Join(missing, ", "))
	}
	if len(r.Samples) == 0 {
		return fmt.Errorf("record %s/%s/%s/%s has no samples", r.Area, r.Case, r.Tool, r.Metric)
	}
	return nil
}

// WriteRecords writes records as JSON lines.
func WriteRecords(w io.Writer, recs []Record) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("writing benchmark record: %w", err)
		}
	}
	return nil
}

// maxLine bounds one JSON line (a record with a few thousand samples fits).
const maxLine = 4 << 20

// ReadRecords reads JSON lines of records; blank lines are skipped. An
// invalid line is an error naming its line number.
func ReadRecords(r io.Reader) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec Record
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return nil, fmt.Errorf("line %d: not a benchmark record: %w", n, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: more than one JSON value", n)
		}
		if err := rec.Validate(); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("a benchmark record line is longer than %d bytes", maxLine)
		}
		return nil, err
	}
	return out, nil
}
