package geminicli

import (
	"encoding/json"

	"github.com/gopi-agent/gopi/internal/jsonvalue"
)

// unsupportedKeys are JSON Schema keywords Cloud Code Assist's Schema
// (the OpenAPI subset behind "parameters") does not accept; they are
// dropped wherever they are keywords (not inside "properties", where keys
// are property names).
var unsupportedKeys = map[string]bool{
	"$schema": true, "$ref": true, "$defs": true, "$dynamicRef": true, "$dynamicAnchor": true,
	"examples": true, "prefixItems": true, "unevaluatedProperties": true, "unevaluatedItems": true,
	"patternProperties": true, "additionalProperties": true, "minItems": true, "maxItems": true,
	"minLength": true, "maxLength": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "pattern": true, "format": true,
}

// maxSchemaDepth bounds the walk (a schema is data from tools, MCP servers
// among them).
const maxSchemaDepth = 64

// sanitizeSchema rewrites a tool's JSON Schema into the subset Cloud Code
// Assist's "parameters" field takes: unsupported keywords dropped, "const"
// and anyOf/oneOf lists of consts turned into "enum", a type list such as
// ["string","null"] reduced to its first non-null type, "nullable" removed
// and every object schema given "properties". An unparseable schema is an
// empty object schema.
func sanitizeSchema(raw json.RawMessage) any {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return emptyObject()
	}
	return sanitizeValue(v, false, 0)
}

// claudeSchema is sanitizeSchema for Claude models behind Cloud Code
// Assist, which also refuse anyOf/oneOf/allOf and null types: a union of one
// type with null becomes that type; a schema that still holds a union
// falls back to an empty object schema, so that one tool's schema cannot
// fail the whole request.
func claudeSchema(raw json.RawMessage) any {
	s := unwrapNullable(sanitizeSchema(raw), 0)
	if hasUnion(s, 0) {
		return emptyObject()
	}
	return s
}

func emptyObject() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{}}
}

func sanitizeValue(v any, inProperties bool, depth int) any {
	if depth > maxSchemaDepth {
		return map[string]any{}
	}
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = sanitizeValue(e, false, depth+1)
		}
		return out
	case map[string]any:
		if inProperties {
			out := make(map[string]any, len(v))
			for k, e := range v {
				out[k] = sanitizeValue(e, false, depth+1)
			}
			return out
		}
		return sanitizeObject(v, depth)
	}
	return v
}

func sanitizeObject(obj map[string]any, depth int) map[string]any {
	out := map[string]any{}
	for _, comb := range []string{"anyOf", "oneOf"} {
		if vals, ok := constVariants(obj[comb]); ok {
			out["enum"] = vals
			if t := commonType(obj[comb].([]any), vals); t != "" {
				out["type"] = t
			}
			for k, e := range obj {
				if k != comb && out[k] == nil && !unsupportedKeys[k] && k != "nullable" {
					out[k] = sanitizeValue(e, k == "properties", depth+1)
				}
			}
			return out
		}
	}
	var constVal any
	hasConst := false
	for k, e := range obj {
		switch {
		case unsupportedKeys[k], k == "nullable":
		case k == "const":
			constVal, hasConst = e, true
		default:
			out[k] = sanitizeValue(e, k == "properties", depth+1)
		}
	}
	if types, ok := out["type"].([]any); ok {
		var first, firstNonNull string
		for _, t := range types {
			if s, ok := t.(string); ok {
				if first == "" {
					first = s
				}
				if s != "null" && firstNonNull == "" {
					firstNonNull = s
				}
			}
		}
		if firstNonNull != "" {
			out["type"] = firstNonNull
		} else if first != "" {
			out["type"] = first
		} else {
			delete(out, "type")
		}
	}
	if hasConst {
		enum, _ := out["enum"].([]any)
		out["enum"] = jsonvalue.AppendUnique(enum, constVal)
		if _, ok := out["type"]; !ok {
			if t := jsonvalue.Type(constVal); t != "" {
				out["type"] = t
			}
		}
	}
	if out["type"] == "object" {
		if _, ok := out["properties"]; !ok {
			out["properties"] = map[string]any{}
		}
	}
	return out
}

// constVariants returns the values of a non-empty list of {"const": …}
// variants (duplicates dropped), or false.
func constVariants(v any) ([]any, bool) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, false
	}
	var vals []any
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		c, ok := m["const"]
		if !ok {
			return nil, false
		}
		vals = jsonvalue.AppendUnique(vals, c)
	}
	return vals, true
}

// commonType is the type the variants all declare, else the one type of
// their values (ignoring null), else "".
func commonType(variants []any, vals []any) string {
	declared := ""
	for i, e := range variants {
		t, _ := e.(map[string]any)["type"].(string)
		if t == "" || (i > 0 && t != declared) {
			declared = ""
			break
		}
		declared = t
	}
	if declared != "" {
		return declared
	}
	seen := ""
	for _, v := range vals {
		t := jsonvalue.Type(v)
		if t == "null" || t == "" {
			continue
		}
		if seen != "" && seen != t {
			return ""
		}
		seen = t
	}
	return seen
}

// unwrapNullable replaces an anyOf/oneOf of exactly one schema besides
// {"type":"null"} by that schema (keeping the parent's other keywords).
func unwrapNullable(v any, depth int) any {
	if depth > maxSchemaDepth {
		return v
	}
	switch v := v.(type) {
	case []any:
		for i, e := range v {
			v[i] = unwrapNullable(e, depth+1)
		}
		return v
	case map[string]any:
		for _, comb := range []string{"anyOf", "oneOf"} {
			list, ok := v[comb].([]any)
			if !ok {
				continue
			}
			var keep []map[string]any
			for _, e := range list {
				m, ok := e.(map[string]any)
				if !ok {
					keep = nil
					break
				}
				if m["type"] != "null" {
					keep = append(keep, m)
				}
			}
			if len(keep) == 1 && len(list) == 2 {
				delete(v, comb)
				for k, e := range keep[0] {
					if _, exists := v[k]; !exists {
						v[k] = e
					}
				}
			}
		}
		for k, e := range v {
			v[k] = unwrapNullable(e, depth+1)
		}
		return v
	}
	return v
}

// hasUnion reports whether a schema still holds a combiner or a null type.
func hasUnion(v any, depth int) bool {
	if depth > maxSchemaDepth {
		return true
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			if hasUnion(e, depth+1) {
				return true
			}
		}
	case map[string]any:
		if v["type"] == "null" {
			return true
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			if _, ok := v[k]; ok {
				return true
			}
		}
		for _, e := range v {
			if hasUnion(e, depth+1) {
				return true
			}
		}
	}
	return false
}
