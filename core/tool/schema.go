package tool

import (
	"encoding/json"
	"fmt"
)

// Schema is the subset of JSON Schema that tool parameters use: typed
// objects, arrays, strings, numbers, integers and booleans, with required
// properties, enums, bounds and descriptions. It marshals to standard JSON
// Schema for providers and is checked by Validate.
type Schema struct {
	Type                 string             `json:"type,omitempty"`                 // "object", "array", "string", "number", "integer", "boolean"
	Description          string             `json:"description,omitempty"`          // model-facing description
	Properties           map[string]*Schema `json:"properties,omitempty"`           // object members
	Required             []string           `json:"required,omitempty"`             // members that must be present
	AdditionalProperties *bool              `json:"additionalProperties,omitempty"` // false rejects unknown members
	Items                *Schema            `json:"items,omitempty"`                // array element schema
	MinItems             *int               `json:"minItems,omitempty"`             // shortest array
	Enum                 []any              `json:"enum,omitempty"`                 // allowed values (strings or numbers)
	MinLength            *int               `json:"minLength,omitempty"`            // shortest string, in characters
	Minimum              *float64           `json:"minimum,omitempty"`              // smallest number
	Maximum              *float64           `json:"maximum,omitempty"`              // largest number
	Default              any                `json:"default,omitempty"`              // documented default (not applied)
	Examples             []any              `json:"examples,omitempty"`             // sample values shown to the model
	// Values, when set, is the schema of an object's members beyond
	// Properties (a map such as an environment); it is written as the
	// schema form of additionalProperties and takes precedence over
	// AdditionalProperties.
	Values *Schema `json:"-"`
	// Raw, when set, is the schema exactly as its source wrote it (an MCP
	// server's inputSchema, which may use keywords outside this subset such
	// as anyOf or $ref): it is what providers receive, while the fields
	// above, parsed from it, drive Validate.
	Raw json.RawMessage `json:"-"`
}

// plainSchema is Schema without its JSON methods.
type plainSchema Schema

// MarshalJSON writes Raw when it is set; otherwise additionalProperties
// as Values' schema when Values is set, else as the boolean.
func (s *Schema) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	if s.Values == nil {
		return json.Marshal((*plainSchema)(s))
	}
	return json.Marshal(struct {
		*plainSchema
		AdditionalProperties *Schema `json:"additionalProperties"`
	}{(*plainSchema)(s), s.Values})
}

// UnmarshalJSON reads additionalProperties in either form: a boolean
// into AdditionalProperties, a schema into Values.
func (s *Schema) UnmarshalJSON(data []byte) error {
	var v struct {
		*plainSchema
		AdditionalProperties json.RawMessage `json:"additionalProperties"`
	}
	v.plainSchema = (*plainSchema)(s)
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	s.AdditionalProperties, s.Values = nil, nil
	switch raw := v.AdditionalProperties; {
	case len(raw) == 0 || string(raw) == "null":
	case string(raw) == "true" || string(raw) == "false":
		b := string(raw) == "true"
		s.AdditionalProperties = &b
	default:
		var vs Schema
		if err := json.Unmarshal(raw, &vs); err != nil {
			return fmt.Errorf("additionalProperties: %w", err)
		}
		s.Values = &vs
	}
	return nil
}

// Object returns an object schema with the given properties; names listed
// in required must be present.
func Object(props map[string]*Schema, required ...string) *Schema {
	return &Schema{Type: "object", Properties: props, Required: required}
}

// String returns a string schema with a description.
func String(desc string) *Schema { return &Schema{Type: "string", Description: desc} }

// Boolean returns a boolean schema with a description.
func Boolean(desc string) *Schema { return &Schema{Type: "boolean", Description: desc} }

// Number returns a number schema with a description.
func Number(desc string) *Schema { return &Schema{Type: "number", Description: desc} }

// Integer returns an integer schema with a description.
func Integer(desc string) *Schema { return &Schema{Type: "integer", Description: desc} }

// Array returns an array schema of items with a description.
func Array(items *Schema, desc string) *Schema {
	return &Schema{Type: "array", Items: items, Description: desc}
}

// Ptr returns a pointer to v, for the optional bounds of a Schema.
func Ptr[T any](v T) *T { return &v }
