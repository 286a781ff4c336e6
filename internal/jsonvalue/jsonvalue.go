// Package jsonvalue answers questions about values decoded from JSON into
// interface values (nil, string, float64 or json.Number, bool, []any,
// map[string]any), as the JSON Schema cleaners of MCP tools and of the
// Cloud Code Assist provider need them.
package jsonvalue

import (
	"encoding/json"
	"reflect"
)

// Type returns the JSON Schema type name of a decoded value ("null",
// "string", "number", "boolean", "array", "object"), or "" for a value
// JSON decoding does not produce.
func Type(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

// AppendUnique appends v to list unless an equal value is there already.
func AppendUnique(list []any, v any) []any {
	for _, e := range list {
		if reflect.DeepEqual(e, v) {
			return list
		}
	}
	return append(list, v)
}
