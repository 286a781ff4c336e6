package config

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Name is the kind's short type name, as `gopi config list` shows it and
// omp's `config --json` spells it: boolean, string, number, enum, array,
// record.
func (k Kind) Name() string {
	switch k {
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindEnum:
		return "enum"
	case KindArray:
		return "array"
	case KindRecord:
		return "record"
	}
	return "string"
}

// TypeHint is how a setting's accepted values are shown beside it:
// "(a|b|c)" for an enum, "(boolean)", "(number)" and so on otherwise.
func (d Def) TypeHint() string {
	if d.Kind == KindEnum {
		return "(" + strings.Join(d.Values, "|") + ")"
	}
	return "(" + d.Kind.Name() + ")"
}

// ParseValue turns the text a user typed for the setting d (`gopi config
// set KEY VALUE`) into the value stored: true/false (also yes/no, on/off,
// 1/0) for a boolean, a finite number, one of the allowed values of an
// enum, JSON for an array or a record, the text itself for a string. The
// error names the key and what it accepts.
func (d Def) ParseValue(raw string) (any, error) {
	s := strings.TrimSpace(raw)
	switch d.Kind {
	case KindBool:
		switch strings.ToLower(s) {
		case "true", "1", "yes", "on":
			return true, nil
		case "false", "0", "no", "off":
			return false, nil
		}
		return nil, fmt.Errorf("%s: %q is not a boolean; use true/false, yes/no, on/off or 1/0", d.Key, raw)
	case KindNumber:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%s: %q is not a number; give digits such as 3 or 0.5", d.Key, raw)
		}
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int(f), nil
		}
		return f, nil
	case KindEnum:
		if !slices.Contains(d.Values, s) {
			return nil, fmt.Errorf("%s: %q is not allowed; use one of %s", d.Key, raw, strings.Join(d.Values, ", "))
		}
		return s, nil
	case KindArray:
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return nil, fmt.Errorf("%s: %q is not a JSON array; write it as [\"a\", \"b\"]", d.Key, raw)
		}
		if _, ok := v.([]any); !ok {
			return nil, fmt.Errorf("%s: %q is not a JSON array; write it as [\"a\", \"b\"]", d.Key, raw)
		}
		return v, nil
	case KindRecord:
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return nil, fmt.Errorf("%s: %q is not a JSON object; write it as {\"name\": \"value\"}", d.Key, raw)
		}
		if _, ok := v.(map[string]any); !ok {
			return nil, fmt.Errorf("%s: %q is not a JSON object; write it as {\"name\": \"value\"}", d.Key, raw)
		}
		return v, nil
	}
	return s, nil
}

// Defs lists every known setting in schema order.
func Defs() []Def { return slices.Clone(schema) }

// EditorCommand is the command that edits a file for the user: Editor
// ($VISUAL, else $EDITOR), else "vi".
func (c *Config) EditorCommand() string {
	if v := strings.TrimSpace(c.Editor()); v != "" {
		return v
	}
	return "vi"
}

// CheckSettingsFile parses a YAML settings file's content and checks every
// known setting in it against the schema: one error per problem, none
// when the file is valid.
func CheckSettingsFile(data []byte) []error {
	m, err := ParseSettings(data, FormatYAML)
	if err != nil {
		return []error{err}
	}
	return validate(expandDotted(m))
}
