package websearch

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// decodeLenient decodes data into out after fitting the JSON to out's
// type: a number or boolean where text is expected becomes its text, any
// other value of the wrong kind becomes the field's zero value. A
// provider that sends one odd field (a numeric title) then loses that
// field, not the whole answer. It is the fallback when a strict decode
// fails on a type.
func decodeLenient(data []byte, out any) error {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	fixed, err := json.Marshal(fitJSON(v, reflect.TypeOf(out).Elem()))
	if err != nil {
		return err
	}
	return json.Unmarshal(fixed, out)
}

// fitJSON is v with every value that does not fit t replaced (see
// decodeLenient); nil leaves the Go value at its zero.
func fitJSON(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil {
		return nil
	}
	if t.Implements(reflect.TypeFor[json.Unmarshaler]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return v // the type decodes itself
	}
	switch t.Kind() {
	case reflect.Interface:
		return v
	case reflect.String:
		switch x := v.(type) {
		case string:
			return x
		case json.Number:
			return x.String()
		case bool:
			return strconv.FormatBool(x)
		}
		return nil
	case reflect.Bool:
		if b, ok := v.(bool); ok {
			return b
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		switch x := v.(type) {
		case json.Number:
			return x
		case string:
			if _, err := strconv.ParseFloat(x, 64); err == nil {
				return json.Number(x)
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		list, ok := v.([]any)
		if !ok {
			return nil
		}
		out := make([]any, 0, len(list))
		for _, e := range list {
			if f := fitJSON(e, t.Elem()); f != nil || e == nil {
				out = append(out, f)
			}
		}
		return out
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = fitJSON(e, t.Elem())
		}
		return out
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out := make(map[string]any, len(m))
		fitFields(m, t, out)
		return out
	}
	return v
}

// fitFields fits the members of m that name fields of struct t (by their
// JSON names, embedded structs included) into out.
func fitFields(m map[string]any, t reflect.Type, out map[string]any) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				fitFields(m, ft, out)
				continue
			}
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		for k, e := range m {
			if strings.EqualFold(k, name) {
				out[k] = fitJSON(e, f.Type)
			}
		}
	}
}
