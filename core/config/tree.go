package config

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// Settings data is a tree of plain values: map[string]any for objects,
// []any for lists, and string, bool, int, float64 or nil for scalars.
// normalize brings parsed YAML and JSON into that shape; the helpers below
// read, write and merge it by dotted path.

// normalize converts a decoded value into the settings tree shape:
// integral numbers in int64's range become int, other numbers float64, maps get string keys,
// timestamps become their text and anything else its fmt form.
func normalize(v any) any {
	switch x := v.(type) {
	case nil, string, bool:
		return x
	case int:
		return x
	case int64:
		return int(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int(x)
		}
		return float64(x)
	case int32:
		return int(x)
	case uint:
		return normalize(uint64(x))
	case uint32:
		return int(x)
	case float32:
		return normalize(float64(x))
	case float64:
		// Every integral float64 in int64's range converts exactly; the
		// same number written back as JSON reads as an int, so it must be
		// one here too (a YAML 1e16 and a JSON 10000000000000000 agree).
		if x == math.Trunc(x) && x >= math.MinInt64 && x < math.MaxInt64 {
			return int(x)
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = normalize(e)
		}
		return out
	case time.Time:
		if x.Equal(x.Truncate(24*time.Hour)) && x.Location() == time.UTC {
			return x.Format(time.DateOnly)
		}
		return x.Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}

// toFloat returns a number's value.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint64:
		return float64(x), true
	case uint32:
		return float64(x), true
	case float64:
		return x, true
	case float32:
		return float64(x), true
	}
	return 0, false
}

// splitKey splits a dotted key into its path segments.
func splitKey(key string) []string { return strings.Split(key, ".") }

// getPath returns the value at path in m; nil and false when any segment
// is missing or not a map.
func getPath(m map[string]any, path []string) (any, bool) {
	var cur any = m
	for _, seg := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// setPath stores v at path in m, replacing non-map values on the way by
// maps. A nil v removes the key (and leaves the parents in place).
func setPath(m map[string]any, path []string, v any) {
	cur := m
	for _, seg := range path[:len(path)-1] {
		next, ok := cur[seg].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[seg] = next
		}
		cur = next
	}
	last := path[len(path)-1]
	if v == nil {
		delete(cur, last)
		return
	}
	cur[last] = v
}

// expandDotted returns m with top-level keys containing dots ("edit.mode")
// moved to their nested place, merged over nested values with the same
// path. Keys below the top level are left alone.
func expandDotted(m map[string]any) map[string]any {
	flat := false
	for k := range m {
		if strings.Contains(k, ".") {
			flat = true
			break
		}
	}
	if !flat {
		return m
	}
	out := map[string]any{}
	for _, k := range sortedKeys(m) {
		if !strings.Contains(k, ".") {
			out[k] = m[k]
		}
	}
	for _, k := range sortedKeys(m) {
		if strings.Contains(k, ".") && !slices.Contains(splitKey(k), "") {
			nested := map[string]any{}
			setPath(nested, splitKey(k), m[k])
			out = deepMerge(out, nested)
		}
	}
	return out
}

// deepMerge returns base with over merged on top: maps merge key by key,
// anything else (lists included) is replaced. Neither input is modified.
func deepMerge(base, over map[string]any) map[string]any {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]any{}
	}
	for k, ov := range over {
		om, oIsMap := ov.(map[string]any)
		bm, bIsMap := out[k].(map[string]any)
		if oIsMap && bIsMap {
			out[k] = deepMerge(bm, om)
			continue
		}
		out[k] = deepCopy(ov)
	}
	return out
}

// deepCopy copies the maps and lists of a tree value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// sortedKeys returns a map's keys in order, for deterministic walks.
func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
