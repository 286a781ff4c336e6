package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gopi-agent/gopi/internal/jsonvalue"
)

// An MCP server describes each tool's arguments with a JSON Schema
// (inputSchema) that providers then receive as the tool's parameters.
// Servers write schemas providers refuse — one that is not an object at
// all, a top-level type other than object or a top-level anyOf, $ref
// pointers into $defs, $schema and OpenAPI's nullable — and one refused
// schema makes the provider reject every request of the session. So the
// schema is cleaned first, as omp does: local references are inlined,
// keywords providers reject are dropped, const becomes enum, and the top
// level is made a plain object schema. What changes the meaning is
// reported as a warning; a tool whose schema is still too large after
// that is left out.

// Limits of a cleaned schema.
const (
	maxSchemaNodes = 5000      // objects and arrays after inlining references
	maxSchemaDepth = 64        // nesting of objects and arrays
	maxSchemaBytes = 256 << 10 // the schema as sent with every request
)

// emptySchema is the schema of a tool without parameters.
const emptySchema = `{"type":"object","properties":{}}`

// cleanedSchema is an inputSchema made fit for providers.
type cleanedSchema struct {
	raw      json.RawMessage // what providers receive
	warnings []string        // what was changed that the user should know
	drop     bool            // the tool cannot be offered (warnings say why)
}

// cleanInputSchema cleans an MCP tool's inputSchema (as the SDK decoded
// it).
func cleanInputSchema(v any) cleanedSchema {
	var out cleanedSchema
	raw, err := json.Marshal(v)
	if err != nil {
		out.warnings = append(out.warnings, fmt.Sprintf("its inputSchema cannot be read (%v); the tool is offered without parameters", err))
		out.raw = json.RawMessage(emptySchema)
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	_ = dec.Decode(&doc)
	if doc == nil {
		out.raw = json.RawMessage(emptySchema) // no schema: no parameters
		return out
	}
	root, ok := doc.(map[string]any)
	if !ok {
		out.warnings = append(out.warnings, fmt.Sprintf("its inputSchema is %s, not a JSON Schema object; the tool is offered without parameters", describeJSON(doc)))
		out.raw = json.RawMessage(emptySchema)
		return out
	}
	c := &cleaner{root: root, budget: maxSchemaNodes}
	node, _ := c.inline(root, 0, nil).(map[string]any)
	node, _ = c.sanitize(node, false).(map[string]any)
	c.topLevel(node)
	out.warnings = c.warnings
	out.raw, err = json.Marshal(node)
	switch {
	case err != nil:
		out.warnings = append(out.warnings, fmt.Sprintf("its inputSchema cannot be written back (%v); the tool is offered without parameters", err))
		out.raw = json.RawMessage(emptySchema)
	case len(out.raw) > maxSchemaBytes:
		out.warnings = append(out.warnings, fmt.Sprintf("its inputSchema is %d KB once its references are inlined, more than the %d KB sent with every request allows; the tool is left out", len(out.raw)>>10, maxSchemaBytes>>10))
		out.drop = true
	}
	return out
}

// cleaner holds the state of one cleaning.
type cleaner struct {
	root     map[string]any
	budget   int // nodes left to produce
	warnings []string
	seen     map[string]bool // warnings already given
}

func (c *cleaner) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if !c.seen[msg] {
		c.seen[msg] = true
		c.warnings = append(c.warnings, msg)
	}
}

// inline copies v with every local $ref (#/$defs/NAME, #/definitions/NAME)
// replaced by a copy of its target, siblings of the $ref kept; a
// reference to itself (through refs) becomes {}. $defs and definitions
// are dropped. What cannot be resolved, or would exceed the node budget
// or the depth limit, becomes {} with a warning.
func (c *cleaner) inline(v any, depth int, inside []string) any {
	switch v := v.(type) {
	case map[string]any:
		if depth > maxSchemaDepth || c.budget <= 0 {
			c.warn("its inputSchema nests deeper or is larger than gopi inlines (%d levels, %d nodes); the deepest parts accept any value", maxSchemaDepth, maxSchemaNodes)
			return map[string]any{}
		}
		c.budget--
		if ref, ok := v["$ref"].(string); ok {
			target, found := c.resolve(ref)
			var merged map[string]any
			switch {
			case !found:
				c.warn("its inputSchema refers to %s, which gopi cannot resolve; that part accepts any value", ref)
				merged = map[string]any{}
			case contains(inside, ref):
				merged = map[string]any{} // a recursive definition: open from here on
			default:
				merged, _ = c.inline(target, depth+1, append(inside, ref)).(map[string]any)
				if merged == nil {
					merged = map[string]any{}
				}
			}
			for _, k := range sortedKeys(v) {
				if k != "$ref" && k != "$defs" && k != "definitions" {
					merged[k] = c.inline(v[k], depth+1, inside)
				}
			}
			return merged
		}
		out := make(map[string]any, len(v))
		for _, k := range sortedKeys(v) {
			if k == "$defs" || k == "definitions" {
				continue
			}
			out[k] = c.inline(v[k], depth+1, inside)
		}
		return out
	case []any:
		if depth > maxSchemaDepth || c.budget <= 0 {
			return []any{}
		}
		c.budget--
		out := make([]any, len(v))
		for i, sub := range v {
			out[i] = c.inline(sub, depth+1, inside)
		}
		return out
	}
	return v
}

// resolve finds a local reference's target in the root's $defs or
// definitions.
func (c *cleaner) resolve(ref string) (map[string]any, bool) {
	for _, key := range []string{"$defs", "definitions"} {
		name, ok := strings.CutPrefix(ref, "#/"+key+"/")
		if !ok {
			continue
		}
		defs, _ := c.root[key].(map[string]any)
		target, ok := defs[strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")].(map[string]any)
		return target, ok
	}
	return nil, false // "#", another document, a JSON pointer elsewhere
}

// sortedKeys returns m's keys in order, so that the budget cuts, and the
// warnings come, the same way every time.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sanitize drops the keywords providers reject ($schema, nullable) and
// turns const, and an anyOf or oneOf made only of consts, into enum; an
// object schema gets properties when it has none. Inside "properties"
// the keys are parameter names, not keywords, and are kept.
func (c *cleaner) sanitize(v any, names bool) any {
	switch v := v.(type) {
	case map[string]any:
		if names {
			out := make(map[string]any, len(v))
			for k, sub := range v {
				out[k] = c.sanitize(sub, false)
			}
			return out
		}
		out := make(map[string]any, len(v))
		for k, sub := range v {
			switch k {
			case "$schema", "nullable":
				continue
			case "enum", "const", "default", "examples", "example":
				out[k] = sub // values, not schemas
				continue
			}
			out[k] = c.sanitize(sub, k == "properties" || k == "patternProperties")
		}
		for _, comb := range []string{"anyOf", "oneOf"} {
			if vals, typ, ok := constAlternatives(out[comb]); ok {
				delete(out, comb)
				out["enum"] = vals
				if _, has := out["type"]; !has && typ != "" {
					out["type"] = typ
				}
			}
		}
		if cv, ok := out["const"]; ok {
			delete(out, "const")
			enum, _ := out["enum"].([]any)
			out["enum"] = jsonvalue.AppendUnique(enum, cv)
			if _, has := out["type"]; !has {
				if typ := jsonvalue.Type(cv); typ != "" {
					out["type"] = typ
				}
			}
		}
		if out["type"] == "object" {
			if _, has := out["properties"]; !has {
				out["properties"] = map[string]any{}
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, sub := range v {
			out[i] = c.sanitize(sub, false)
		}
		return out
	}
	return v
}

// constAlternatives reads an anyOf/oneOf whose alternatives are all
// {const: X}: their values, and their one type if they share it.
func constAlternatives(v any) (vals []any, typ string, ok bool) {
	alts, isList := v.([]any)
	if !isList || len(alts) == 0 {
		return nil, "", false
	}
	types := map[string]bool{}
	for _, a := range alts {
		m, isMap := a.(map[string]any)
		if !isMap {
			return nil, "", false
		}
		var cv any
		if e, isEnum := m["enum"].([]any); isEnum && len(e) == 1 {
			cv = e[0] // a const already turned into enum
		} else if x, has := m["const"]; has {
			cv = x
		} else {
			return nil, "", false
		}
		vals = jsonvalue.AppendUnique(vals, cv)
		if t, isString := m["type"].(string); isString {
			types[t] = true
		} else if t := jsonvalue.Type(cv); t != "" {
			types[t] = true
		}
	}
	if len(types) == 1 {
		for t := range types {
			typ = t
		}
	}
	return vals, typ, true
}

// topLevel makes the root a plain object schema: type object, properties
// an object, required a list of names, and no top-level combination
// (anyOf, oneOf, allOf), negation or condition, which providers refuse:
// the properties of object alternatives are merged, and the server checks
// the rest.
func (c *cleaner) topLevel(root map[string]any) {
	switch t := root["type"].(type) {
	case nil:
	case string:
		if t != "object" {
			c.warn("its inputSchema has type %q, not object; providers only take object parameters, so the tool is offered with the parameters it names, if any", t)
		}
	default:
		c.warn("its inputSchema has type %s, not object; providers only take object parameters", describeJSON(t))
	}
	root["type"] = "object"
	props, ok := root["properties"].(map[string]any)
	if !ok {
		if _, has := root["properties"]; has {
			c.warn("its inputSchema's properties are %s, not an object; they are left out", describeJSON(root["properties"]))
		}
		props = map[string]any{}
	}
	var required []any
	if list, ok := root["required"].([]any); ok {
		for _, r := range list {
			if s, isString := r.(string); isString {
				required = jsonvalue.AppendUnique(required, s)
			}
		}
	}
	for _, comb := range []string{"anyOf", "oneOf", "allOf"} {
		alts, has := root[comb]
		if !has {
			continue
		}
		delete(root, comb)
		list, _ := alts.([]any)
		for _, a := range list {
			m, _ := a.(map[string]any)
			sub, _ := m["properties"].(map[string]any)
			for name, p := range sub {
				if _, taken := props[name]; !taken {
					props[name] = p
				}
			}
			if comb == "allOf" {
				reqs, _ := m["required"].([]any)
				for _, r := range reqs {
					if s, isString := r.(string); isString {
						required = jsonvalue.AppendUnique(required, s)
					}
				}
			}
		}
		c.warn("its inputSchema combines schemas at the top level (%s), which providers refuse; the parameters of the parts are merged into one object, and the server checks which combinations it accepts", comb)
	}
	var dropped []string
	for _, k := range []string{"not", "if", "then", "else", "enum", "items", "prefixItems"} {
		if _, has := root[k]; has {
			delete(root, k)
			dropped = append(dropped, k)
		}
	}
	if len(dropped) > 0 {
		sort.Strings(dropped)
		c.warn("its inputSchema uses %s at the top level, which providers refuse; left out (the server still checks the arguments)", strings.Join(dropped, ", "))
	}
	root["properties"] = props
	if len(required) > 0 {
		root["required"] = required
	} else {
		delete(root, "required")
	}
}

// describeJSON names a value for a warning: its type and, when short,
// the value.
func describeJSON(v any) string {
	b, _ := json.Marshal(v)
	shown := string(b)
	if len(shown) > 40 {
		shown = shown[:40] + "…"
	}
	switch jsonvalue.Type(v) {
	case "null":
		return "null"
	case "string":
		return "a string (" + shown + ")"
	case "boolean":
		return "a boolean (" + shown + ")"
	case "number":
		return "a number (" + shown + ")"
	case "array":
		return "an array (" + shown + ")"
	}
	return shown
}
