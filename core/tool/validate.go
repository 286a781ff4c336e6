package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Args are a call's decoded arguments: the JSON object, with numbers as
// json.Number. Tools read them through Decode.
type Args map[string]any

// Decode stores the arguments into v (a pointer to a struct with json tags).
func (a Args) Decode(v any) error {
	b, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("encode arguments: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &Error{Msg: "Invalid arguments: " + err.Error(), Err: err}
	}
	return nil
}

// ValidationError lists every way arguments fail a tool's schema. Its
// message names the tool, each problem with its argument path, and the
// arguments received, so the model can correct the call.
type ValidationError struct {
	Tool     string   // tool name
	Problems []string // "path: problem", in a stable order
	Received string   // the arguments as received, indented JSON
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Invalid arguments for tool %q:\n", e.Tool)
	for _, p := range e.Problems {
		b.WriteString("  - ")
		b.WriteString(p)
		b.WriteByte('\n')
	}
	b.WriteString("\nReceived arguments:\n")
	b.WriteString(e.Received)
	b.WriteString("\nFix the arguments to match the tool's schema and call it again.")
	return b.String()
}

// DecodeArgs decodes raw JSON arguments (empty means {}) and validates them
// against def.Parameters. Strings holding a number or a boolean are
// converted where the schema wants one ("5" for an integer), since models
// often quote scalars; nothing else is coerced.
func DecodeArgs(def Definition, raw json.RawMessage) (Args, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &ValidationError{Tool: def.Name, Problems: []string{"arguments are not valid JSON: " + err.Error()}, Received: string(raw)}
	}
	if def.Parameters != nil {
		var problems []string
		v = validate(def.Parameters, v, "", &problems)
		if len(problems) > 0 {
			return nil, &ValidationError{Tool: def.Name, Problems: problems, Received: indent(raw)}
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &ValidationError{Tool: def.Name, Problems: []string{"arguments: must be an object"}, Received: indent(raw)}
	}
	return Args(obj), nil
}

// Validate checks v against s and returns the problems found (nil when v
// is valid). v must come from encoding/json (numbers as float64 or
// json.Number).
func Validate(s *Schema, v any) []string {
	var problems []string
	validate(s, v, "", &problems)
	return problems
}

func indent(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// validate checks v against s, appending problems, and returns v with
// scalar coercions applied.
func validate(s *Schema, v any, path string, problems *[]string) any {
	name := path
	if name == "" {
		name = "arguments"
	}
	add := func(format string, args ...any) {
		*problems = append(*problems, name+": "+fmt.Sprintf(format, args...))
	}
	if s.Type != "" {
		v = coerce(s.Type, v)
		if !hasType(s.Type, v) {
			add("must be %s, got %s", article(s.Type), describe(v))
			return v
		}
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return sameValue(e, v) }) {
		add("must be one of %s", listEnum(s.Enum))
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range s.Required {
			if _, ok := x[r]; !ok {
				*problems = append(*problems, join(path, r)+": is required but missing")
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := s.Properties[k]; ok {
				x[k] = validate(ps, x[k], join(path, k), problems)
			} else if s.Values != nil {
				x[k] = validate(s.Values, x[k], join(path, k), problems)
			} else if s.AdditionalProperties != nil && !*s.AdditionalProperties {
				*problems = append(*problems, join(path, k)+": is not a known parameter")
			}
		}
	case []any:
		if s.MinItems != nil && len(x) < *s.MinItems {
			add("must have at least %d item(s), got %d", *s.MinItems, len(x))
		}
		if s.Items != nil {
			for i := range x {
				x[i] = validate(s.Items, x[i], path+"["+strconv.Itoa(i)+"]", problems)
			}
		}
	case string:
		if s.MinLength != nil && utf8.RuneCountInString(x) < *s.MinLength {
			add("must be at least %d character(s) long", *s.MinLength)
		}
	case json.Number, float64:
		f := toFloat(x)
		if s.Minimum != nil && f < *s.Minimum {
			add("must be >= %v, got %v", *s.Minimum, x)
		}
		if s.Maximum != nil && f > *s.Maximum {
			add("must be <= %v, got %v", *s.Maximum, x)
		}
	}
	return v
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// coerce converts a string holding a number or boolean when the schema
// wants one.
func coerce(typ string, v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	s = strings.TrimSpace(s)
	switch typ {
	case "number", "integer":
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return json.Number(s)
		}
	case "boolean":
		switch s {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return v
}

func hasType(typ string, v any) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		switch v.(type) {
		case json.Number, float64:
			return true
		}
	case "integer":
		switch v.(type) {
		case json.Number, float64:
			f := toFloat(v)
			return f == math.Trunc(f) && !math.IsInf(f, 0)
		}
	case "null":
		return v == nil
	}
	return false
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case float64:
		return x
	}
	return math.NaN()
}

func sameValue(enum, v any) bool {
	switch e := enum.(type) {
	case string:
		s, ok := v.(string)
		return ok && s == e
	case int:
		return toFloat(v) == float64(e)
	case float64:
		return toFloat(v) == e
	case bool:
		b, ok := v.(bool)
		return ok && b == e
	}
	return false
}

func listEnum(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		b, _ := json.Marshal(e)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}

func article(typ string) string {
	switch typ {
	case "object", "array", "integer":
		return "an " + typ
	}
	return "a " + typ
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		f := toFloat(x)
		if f == math.Trunc(f) {
			return "an integer"
		}
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
