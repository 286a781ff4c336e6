package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// Format is the syntax of a settings file.
type Format uint8

// Settings file formats. JSON files may carry comments and trailing commas
// whatever their extension, as the reference's JSONC reader allows.
const (
	FormatYAML  Format = iota + 1 // .yml, .yaml
	FormatJSON                    // .json
	FormatJSONC                   // .jsonc
)

// FormatOf returns the format a file name's extension says, and false for
// an extension that is not a settings format.
func FormatOf(path string) (Format, bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yml", ".yaml":
		return FormatYAML, true
	case ".json":
		return FormatJSON, true
	case ".jsonc":
		return FormatJSONC, true
	}
	return 0, false
}

// ParseSettings decodes a settings document into a tree of plain values
// (map[string]any, []any, string, bool, int, float64, nil). An empty
// document is an empty map; a document that is not a map at the top level
// is an error. Errors carry the line (and column for JSON) of the problem.
func ParseSettings(data []byte, f Format) (map[string]any, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var v any
	switch f {
	case FormatYAML:
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, errors.New(YAMLErrorText(err))
		}
	case FormatJSON, FormatJSONC:
		clean := StripJSONC(data)
		if len(bytes.TrimSpace(clean)) == 0 {
			return map[string]any{}, nil
		}
		dec := json.NewDecoder(bytes.NewReader(clean))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, jsonError(clean, err)
		}
		if _, err := dec.Token(); err == nil {
			return nil, fmt.Errorf("%s: unexpected data after the top-level value", position(clean, int(dec.InputOffset())))
		}
		v = fromJSONNumbers(v)
	default:
		return nil, fmt.Errorf("unknown settings format %d", f)
	}
	switch m := normalize(v).(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return m, nil
	default:
		return nil, fmt.Errorf("expected a map of settings at the top level, got %s", describe(m))
	}
}

// fromJSONNumbers replaces json.Number values by int or float64.
func fromJSONNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i, e := range x {
			x[i] = fromJSONNumbers(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = fromJSONNumbers(e)
		}
	}
	return v
}

// jsonError turns a decoding error into a message with a line and column.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: %v", position(data, int(se.Offset)-1), se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s: %v", position(data, int(te.Offset)), te)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s: unexpected end of the document", position(data, len(data)))
	}
	return err
}

// position renders a byte offset as "line L, column C" (both 1-based).
func position(data []byte, off int) string {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// StripJSONC turns JSON with comments into plain JSON: // and /* */
// comments outside strings become spaces (newlines are kept, so positions
// in error messages still match the file), and a comma followed only by
// white space and comments before a closing } or ] is dropped. Anything
// else, invalid JSON included, is passed through for the decoder to judge.
func StripJSONC(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	inString := false
	lastComma := -1 // index of a comma that may turn out to be trailing
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
			lastComma = -1
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			i += 2
			for ; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}
