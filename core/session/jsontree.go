package session

// jvalue is a parsed JSON value that keeps member order, used to rewrite a
// new entry for persistence (size controls, blob references). Strings are
// decoded; numbers and literals keep their bytes.
type jvalue struct {
	kind    byte // '{' object, '[' array, '"' string, 'r' number or literal
	keys    []string
	vals    []*jvalue // object values (parallel to keys) or array elements
	str     string
	raw     []byte
	changed bool // set by transforms on the value or anything below it
}

// parseTree parses one valid JSON value.
func parseTree(d []byte) (*jvalue, error) {
	i := skipWS(d, 0)
	v, i, err := parseAt(d, i, 0)
	if err != nil {
		return nil, err
	}
	return v, trailing(d, i)
}

func parseAt(d []byte, i, depth int) (*jvalue, int, error) {
	if i >= len(d) {
		return nil, i, synErr(i, "unexpected end")
	}
	if depth > maxDepth {
		return nil, i, synErr(i, "nested too deeply")
	}
	switch d[i] {
	case '"':
		end, _, err := skipString(d, i)
		if err != nil {
			return nil, end, err
		}
		return &jvalue{kind: '"', str: unquote(d[i:end])}, end, nil
	case '{':
		v := &jvalue{kind: '{'}
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == '}' {
			return v, i + 1, nil
		}
		for {
			if i >= len(d) || d[i] != '"' {
				return nil, i, synErr(i, "expected a member name")
			}
			ke, _, err := skipString(d, i)
			if err != nil {
				return nil, ke, err
			}
			key := unquote(d[i:ke])
			i = skipWS(d, ke)
			if i >= len(d) || d[i] != ':' {
				return nil, i, synErr(i, "expected :")
			}
			var child *jvalue
			if child, i, err = parseAt(d, skipWS(d, i+1), depth+1); err != nil {
				return nil, i, err
			}
			v.keys = append(v.keys, key)
			v.vals = append(v.vals, child)
			i = skipWS(d, i)
			if i >= len(d) {
				return nil, i, synErr(i, "unterminated object")
			}
			if d[i] == '}' {
				return v, i + 1, nil
			}
			if d[i] != ',' {
				return nil, i, synErr(i, "expected , or }")
			}
			i = skipWS(d, i+1)
		}
	case '[':
		v := &jvalue{kind: '['}
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == ']' {
			return v, i + 1, nil
		}
		for {
			child, j, err := parseAt(d, i, depth+1)
			if err != nil {
				return nil, j, err
			}
			v.vals = append(v.vals, child)
			i = skipWS(d, j)
			if i >= len(d) {
				return nil, i, synErr(i, "unterminated array")
			}
			if d[i] == ']' {
				return v, i + 1, nil
			}
			if d[i] != ',' {
				return nil, i, synErr(i, "expected , or ]")
			}
			i = skipWS(d, i+1)
		}
	default:
		s := i
		end, err := skipValue(d, i, depth)
		if err != nil {
			return nil, end, err
		}
		return &jvalue{kind: 'r', raw: d[s:end:end]}, end, nil
	}
}

// get returns the value of an object member, or nil.
func (v *jvalue) get(key string) *jvalue {
	if v == nil || v.kind != '{' {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// appendTo writes the value as compact JSON.
func (v *jvalue) appendTo(b []byte) []byte {
	switch v.kind {
	case '"':
		return appendQuoted(b, v.str)
	case 'r':
		return append(b, v.raw...)
	case '[':
		b = append(b, '[')
		for i, e := range v.vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendTo(b)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, k := range v.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, k)
			b = append(b, ':')
			b = v.vals[i].appendTo(b)
		}
		return append(b, '}')
	}
}

// utf16Len returns the length of s in UTF-16 code units, the unit of a
// JavaScript string's length (omp's limits are counted in it).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// utf16Prefix returns the longest prefix of s of at most n UTF-16 code
// units that does not split a character.
func utf16Prefix(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}
