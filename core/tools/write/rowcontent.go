package write

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/titanous/json5"
)

// rowColumn is one column value of a row write.
type rowColumn struct {
	name  string
	value any // nil, string, bool, int64 or float64: what SQLite binds
}

// parseRow parses the content of a row write: a JSON5 object (comments,
// unquoted keys, single quotes, trailing commas, hex numbers, Infinity
// and NaN allowed) whose values are scalars or null. Integers that fit
// 64 bits stay integers; other numbers are floats. The columns come in
// name order, so the first one refused is the same on every run.
func parseRow(content string) ([]rowColumn, error) {
	var raw json5.RawMessage
	if err := json5.Unmarshal([]byte(content), &raw); err != nil { // the whole text, trailing garbage included
		return nil, fmt.Errorf("SQLite write content must be valid JSON5: %v; give the row as an object, e.g. {name: 'Ada', age: 36}", err)
	}
	d := json5.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("SQLite write content must be valid JSON5: %v", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("SQLite write content must be a JSON object: give the row's columns as {column: value, …}")
	}
	cols := make([]rowColumn, 0, len(obj))
	for name, val := range obj {
		c, err := scalar(name, val)
		if err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	slices.SortFunc(cols, func(a, b rowColumn) int { return strings.Compare(a.name, b.name) })
	return cols, nil
}

// scalar converts one decoded value to what SQLite binds.
func scalar(name string, v any) (rowColumn, error) {
	switch v := v.(type) {
	case nil, string, bool, float64:
		return rowColumn{name, v}, nil
	case json5.Number:
		return rowColumn{name, number(string(v))}, nil
	}
	return rowColumn{}, fmt.Errorf("SQLite column '%s' only accepts JSON scalar values or null; store nested data as a string, e.g. %s: '[1, 2]'", name, name)
}

// number converts a JSON5 number literal: an integer (decimal or hex)
// that fits in 64 bits is an int64, anything else a float64.
func number(s string) any {
	digits := strings.TrimLeft(s, "+-")
	neg := strings.HasPrefix(s, "-")
	if hex, ok := strings.CutPrefix(strings.ToLower(digits), "0x"); ok {
		if u, err := strconv.ParseUint(hex, 16, 64); err == nil {
			switch {
			case !neg && u <= math.MaxInt64:
				return int64(u)
			case neg && u <= 1<<63:
				return -int64(u-1) - 1
			}
		}
		f, _ := strconv.ParseFloat("0x"+hex+"p0", 64)
		if neg {
			f = -f
		}
		return f
	}
	if n, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64); err == nil {
		return n
	}
	f, _ := strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64) // ±Inf past the range, as JavaScript reads it
	return f
}
