package session

// Member-level edits of a JSON object that keep every other member's bytes
// as they were: migrations and header changes touch one or two fields of
// lines written by another program, and the rest must survive unchanged.

// objGet returns the value of member key, or nil.
func objGet(obj []byte, key string) []byte {
	var v []byte
	eachMember(obj, func(m member) bool {
		if m.is(key) {
			v = m.Value
			return false
		}
		return true
	})
	return v
}

// objSet replaces member key's value, or appends the member when absent
// (where JavaScript puts a new property). obj must be a valid object.
func objSet(obj []byte, key string, val []byte) []byte {
	out := []byte{'{'}
	found := false
	eachMember(obj, func(m member) bool {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, m.Key...)
		out = append(out, ':')
		if !found && m.is(key) {
			found = true
			out = append(out, val...)
		} else {
			out = append(out, m.Value...)
		}
		return true
	})
	if !found {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = appendQuoted(out, key)
		out = append(out, ':')
		out = append(out, val...)
	}
	return append(out, '}')
}

// objDelete removes member key (every occurrence).
func objDelete(obj []byte, key string) []byte {
	out := []byte{'{'}
	eachMember(obj, func(m member) bool {
		if m.is(key) {
			return true
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, m.Key...)
		out = append(out, ':')
		out = append(out, m.Value...)
		return true
	})
	return append(out, '}')
}

// quoted returns s as a JSON string.
func quoted(s string) []byte { return appendQuoted(nil, s) }
