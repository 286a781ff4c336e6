package message

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// object builds a JSON object member by member, in the order the members
// are added (omp's field order), without HTML escaping.
type object struct {
	buf []byte
	err error
}

func newObject() *object { return &object{buf: []byte{'{'}} }

// raw adds a member whose value is already JSON.
func (o *object) raw(key string, v []byte) *object {
	if len(o.buf) > 1 {
		o.buf = append(o.buf, ',')
	}
	k, _ := marshalNoEscape(key)
	o.buf = append(o.buf, k...)
	o.buf = append(o.buf, ':')
	o.buf = append(o.buf, v...)
	return o
}

// add adds a member encoding v.
func (o *object) add(key string, v any) *object {
	b, err := marshalNoEscape(v)
	if err != nil {
		if o.err == nil {
			o.err = fmt.Errorf("encode %s: %w", key, err)
		}
		return o
	}
	return o.raw(key, b)
}

// opt adds a member encoding v unless skip is true.
func (o *object) opt(skip bool, key string, v any) *object {
	if skip {
		return o
	}
	return o.add(key, v)
}

// extra adds the members of m (unknown fields kept from decoding) in key order.
func (o *object) extra(m map[string]json.RawMessage, order []string) *object {
	for _, k := range order {
		if v, ok := m[k]; ok {
			o.raw(k, v)
		}
	}
	return o
}

func (o *object) bytes() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	return append(o.buf, '}'), nil
}

// members decodes an object into its members and their order.
func members(data []byte) (map[string]json.RawMessage, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("expected a JSON object")
	}
	m := map[string]json.RawMessage{}
	var order []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := m[k]; !dup {
			order = append(order, k)
		}
		m[k] = v
	}
	return m, order, nil
}
