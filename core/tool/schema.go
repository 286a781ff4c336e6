package tool

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
