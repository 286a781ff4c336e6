package config

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Kind is the type of a setting's value.
type Kind uint8

// Setting kinds, as the reference schema names them.
const (
	KindBool   Kind = iota + 1 // true or false
	KindString                 // any string
	KindNumber                 // an integer or a decimal number
	KindEnum                   // one of Def.Values
	KindArray                  // a list
	KindRecord                 // a map from names to values
)

// String names the kind as an error message would.
func (k Kind) String() string {
	switch k {
	case KindBool:
		return "a boolean"
	case KindString:
		return "a string"
	case KindNumber:
		return "a number"
	case KindEnum:
		return "one of a fixed set of strings"
	case KindArray:
		return "a list"
	case KindRecord:
		return "a map"
	}
	return "unknown"
}

// Def describes one known setting.
type Def struct {
	Key     string   // dotted path, e.g. "compaction.reserveTokens"
	Kind    Kind     // type of the value
	Default any      // value when no layer sets it (nil: unset)
	Values  []string // allowed values of a KindEnum
}

// index is the schema by key, and the set of key prefixes (every proper
// dotted prefix of a key, e.g. "compaction" for "compaction.enabled").
var index = sync.OnceValue(func() (ix struct {
	defs     map[string]*Def
	prefixes map[string]bool
}) {
	ix.defs = make(map[string]*Def, len(schema))
	ix.prefixes = map[string]bool{}
	for i := range schema {
		d := &schema[i]
		ix.defs[d.Key] = d
		for j := range len(d.Key) {
			if d.Key[j] == '.' {
				ix.prefixes[d.Key[:j]] = true
			}
		}
	}
	return ix
})

// Lookup returns the definition of a known setting.
func Lookup(key string) (Def, bool) {
	d, ok := index().defs[key]
	if !ok {
		return Def{}, false
	}
	return *d, true
}

// Keys lists every known setting key in schema order.
func Keys() []string {
	keys := make([]string, len(schema))
	for i, d := range schema {
		keys[i] = d.Key
	}
	return keys
}

// isGroup reports whether key is the dotted prefix of known keys (a map of
// settings rather than a setting).
func isGroup(key string) bool { return index().prefixes[key] }

// Check reports whether v is a valid value for the setting d. nil is
// always valid: it leaves the setting at the next lower layer's value.
func (d Def) Check(v any) error {
	if v == nil {
		return nil
	}
	ok := false
	switch d.Kind {
	case KindBool:
		_, ok = v.(bool)
	case KindString:
		_, ok = v.(string)
	case KindNumber:
		_, ok = toFloat(v)
	case KindEnum:
		s, isStr := v.(string)
		ok = isStr && slices.Contains(d.Values, s)
	case KindArray:
		_, ok = v.([]any)
	case KindRecord:
		_, ok = v.(map[string]any)
	}
	if ok {
		return nil
	}
	want := d.Kind.String()
	if d.Kind == KindEnum {
		want = "one of " + strings.Join(d.Values, ", ")
	}
	return fmt.Errorf("%s: expected %s, got %s", d.Key, want, describe(v))
}

// describe renders a value for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case bool, int, int64, float64:
		return fmt.Sprintf("%v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a map"
	}
	return fmt.Sprintf("%T", v)
}

// validate checks every known setting in a layer's data and returns one
// error per bad value (empty when the data is valid). Unknown keys are
// ignored; a map under a key that is both a setting and a group of
// settings (todo.reminders and todo.reminders.max) is taken as the group.
func validate(data map[string]any) []error {
	var errs []error
	var walk func(m map[string]any, prefix string)
	walk = func(m map[string]any, prefix string) {
		for _, k := range sortedKeys(m) {
			v, key := m[k], prefix+k
			sub, isMap := v.(map[string]any)
			if d, known := index().defs[key]; known && !(isMap && d.Kind != KindRecord && isGroup(key)) {
				if err := d.Check(v); err != nil {
					errs = append(errs, err)
				}
				continue
			}
			if isMap {
				walk(sub, key+".")
			}
		}
	}
	walk(data, "")
	return errs
}
