package notebook

import "errors"

// span is a byte range [start, end) of the file.
type span struct{ start, end int }

// member is one key of a JSON object, with the spans of its key (the
// quoted string) and its value.
type member struct {
	key   string // the key, unquoted (escapes are not expected in the keys read)
	keyAt span   // the quoted key
	val   span   // the value
}

// object is a JSON object of the file: its span and its members, in file
// order.
type object struct {
	at      span
	members []member
}

// find returns the index of the last member named key (JSON parsers keep
// the last of duplicate keys), or -1.
func (o *object) find(key string) int {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			return i
		}
	}
	return -1
}

// scanner walks JSON text that encoding/json has already accepted,
// recording spans; it does not check syntax again.
type scanner struct{ data []byte }

var errScan = errors.New("unexpected JSON structure")

// ws returns the index of the first non-white-space byte at or after i.
func (s *scanner) ws(i int) int {
	for i < len(s.data) {
		switch s.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value returns the end of the value starting at i (after white space).
func (s *scanner) value(i int) (int, error) {
	i = s.ws(i)
	if i >= len(s.data) {
		return 0, errScan
	}
	switch s.data[i] {
	case '"':
		return s.str(i)
	case '{', '[':
		depth := 0
		for i < len(s.data) {
			switch s.data[i] {
			case '"':
				end, err := s.str(i)
				if err != nil {
					return 0, err
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, errScan
	}
	for i < len(s.data) {
		switch s.data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i, nil
		}
		i++
	}
	return i, nil
}

// str returns the end of the string starting at the quote at i.
func (s *scanner) str(i int) (int, error) {
	for i++; i < len(s.data); i++ {
		switch s.data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errScan
}

// object reads the object starting at i (after white space), recording
// its members' spans without descending into their values.
func (s *scanner) object(i int) (object, error) {
	i = s.ws(i)
	if i >= len(s.data) || s.data[i] != '{' {
		return object{}, errScan
	}
	o := object{at: span{start: i}}
	i = s.ws(i + 1)
	if i < len(s.data) && s.data[i] == '}' {
		o.at.end = i + 1
		return o, nil
	}
	for i < len(s.data) {
		kEnd, err := s.str(i)
		if err != nil {
			return object{}, err
		}
		key, err := decodeString(s.data[i:kEnd])
		if err != nil {
			return object{}, err
		}
		colon := s.ws(kEnd)
		if colon >= len(s.data) || s.data[colon] != ':' {
			return object{}, errScan
		}
		vStart := s.ws(colon + 1)
		vEnd, err := s.value(vStart)
		if err != nil {
			return object{}, err
		}
		o.members = append(o.members, member{key: key, keyAt: span{i, kEnd}, val: span{vStart, vEnd}})
		i = s.ws(vEnd)
		if i >= len(s.data) {
			return object{}, errScan
		}
		switch s.data[i] {
		case '}':
			o.at.end = i + 1
			return o, nil
		case ',':
			i = s.ws(i + 1)
		default:
			return object{}, errScan
		}
	}
	return object{}, errScan
}

// array returns the spans of the elements of the array starting at i
// (after white space) and the array's own span.
func (s *scanner) array(i int) (span, []span, error) {
	i = s.ws(i)
	if i >= len(s.data) || s.data[i] != '[' {
		return span{}, nil, errScan
	}
	start := i
	var elems []span
	i = s.ws(i + 1)
	if i < len(s.data) && s.data[i] == ']' {
		return span{start, i + 1}, nil, nil
	}
	for i < len(s.data) {
		end, err := s.value(i)
		if err != nil {
			return span{}, nil, err
		}
		elems = append(elems, span{i, end})
		i = s.ws(end)
		if i >= len(s.data) {
			break
		}
		switch s.data[i] {
		case ']':
			return span{start, i + 1}, elems, nil
		case ',':
			i = s.ws(i + 1)
		default:
			return span{}, nil, errScan
		}
	}
	return span{}, nil, errScan
}
