package session

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// decodeMessage decodes a message as message.Decode does, faster for the
// bulk of a session. For user, assistant and tool-result messages the
// content (nearly all of a session's bytes) is decoded here, in the same
// pass that validates it; the other members go through core/ai's decoder
// as a small object without the content. Blocks other than plain text,
// thinking and image blocks, and anything unusual, are left to core/ai, so
// the result is always the one message.Decode gives (FuzzDecodeMessage
// checks it).
func decodeMessage(raw []byte) (ai.Message, error) {
	d := raw
	i := skipWS(d, 0)
	if i >= len(d) || d[i] != '{' {
		return message.Decode(raw) // not an object: the reference decides
	}
	var (
		role     string
		roleOK   bool
		blocks   ai.ContentList
		nContent int
		fast     = true
		reduced  = make([]byte, 1, 256)
	)
	reduced[0] = '{'
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		i++
	} else {
		for {
			if i >= len(d) || d[i] != '"' {
				return nil, synErr(i, "expected a member name")
			}
			ks := i
			ke, esc, err := skipString(d, i)
			if err != nil {
				return nil, err
			}
			m := member{Key: d[ks:ke], esc: esc}
			i = skipWS(d, ke)
			if i >= len(d) || d[i] != ':' {
				return nil, synErr(i, "expected : after member name")
			}
			vs := skipWS(d, i+1)
			switch {
			case m.is("content"):
				nContent++
				var ok bool
				blocks, i, ok, err = decodeContentAt(d, vs)
				if err != nil {
					return nil, err
				}
				if !ok {
					fast = false
				}
			default:
				if i, err = skipValue(d, vs, 1); err != nil {
					return nil, err
				}
				if m.is("role") {
					role, roleOK = stringValue(d[vs:i])
				} else if strings.EqualFold(m.name(), "content") {
					// encoding/json matches member names without regard to
					// case: a "Content" member competes with "content".
					fast = false
				}
				if len(reduced) > 1 {
					reduced = append(reduced, ',')
				}
				reduced = append(append(append(reduced, m.Key...), ':'), d[vs:i]...)
			}
			i = skipWS(d, i)
			if i >= len(d) {
				return nil, synErr(i, "unterminated object")
			}
			if d[i] == '}' {
				i++
				break
			}
			if d[i] != ',' {
				return nil, synErr(i, "expected , or } in object")
			}
			i = skipWS(d, i+1)
		}
	}
	if err := trailing(d, i); err != nil {
		return nil, err
	}
	reduced = append(reduced, '}')
	if !fast || nContent != 1 || !roleOK || (role != string(ai.RoleUser) && role != string(ai.RoleAssistant) && role != string(ai.RoleToolResult)) {
		return message.Decode(raw)
	}
	msg, err := ai.UnmarshalMessage(reduced)
	if err != nil {
		return nil, err
	}
	switch m := msg.(type) {
	case *ai.UserMessage:
		m.Content = blocks
	case *ai.AssistantMessage:
		m.Content = blocks
	case *ai.ToolResultMessage:
		m.Content = blocks
	default:
		return message.Decode(raw)
	}
	return msg, nil
}

// decodeContentAt decodes the content value at d[i]: a string or an array
// of blocks (plain text, thinking and image blocks here, others through
// core/ai as its ContentList decoder would). It returns the offset past the
// value; ok is false when the value is of another kind or a block fails to
// decode (the caller then leaves the message to core/ai), err when the
// value is not valid JSON.
func decodeContentAt(d []byte, i int) (out ai.ContentList, end int, ok bool, err error) {
	if i < len(d) && d[i] == '"' {
		e, esc, err := skipString(d, i)
		if err != nil {
			return nil, e, false, err
		}
		return ai.ContentList{ai.Text(unquoteEsc(d[i:e], esc))}, e, true, nil
	}
	if i >= len(d) || d[i] != '[' {
		e, err := skipValue(d, i, 1)
		return nil, e, false, err
	}
	out = ai.ContentList{}
	ok = true
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == ']' {
		return out, i + 1, true, nil
	}
	for {
		s := i
		c, e, blockOK, err := decodeBlockAt(d, i)
		if err != nil {
			return nil, e, false, err
		}
		if !blockOK && ok {
			if c, err = ai.UnmarshalContent(d[s:e]); err != nil {
				ok = false
			}
		}
		if ok {
			out = append(out, c)
		}
		i = skipWS(d, e)
		if i >= len(d) {
			return nil, i, false, synErr(i, "unterminated array")
		}
		if d[i] == ']' {
			return out, i + 1, ok, nil
		}
		if d[i] != ',' {
			return nil, i, false, synErr(i, "expected , or ] in array")
		}
		i = skipWS(d, i+1)
	}
}

// decodeBlockAt decodes the value at d[i] if it is a text, thinking or
// image block whose members are exactly the ones core/ai knows for its
// type, with string (and, for "redacted", boolean) values; ok is false
// otherwise. end is past the value, which is validated either way.
func decodeBlockAt(d []byte, i int) (c ai.Content, end int, ok bool, err error) {
	if i >= len(d) || d[i] != '{' {
		end, err = skipValue(d, i, 1)
		return nil, end, false, err
	}
	var (
		typ, body, sig    string
		hasType           bool
		bodyName, sigName string
		redacted, hasRed  bool
	)
	ok = true
	setSlot := func(name *string, n string, dst *string, v []byte, esc bool) {
		if !ok {
			return
		}
		if (*name != "" && *name != n) || v[0] != '"' {
			ok = false
			return
		}
		*name, *dst = n, unquoteEsc(v, esc)
	}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return nil, i + 1, false, nil
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return nil, i, false, synErr(i, "expected a member name")
		}
		ks := i
		ke, kesc, err := skipString(d, i)
		if err != nil {
			return nil, ke, false, err
		}
		m := member{Key: d[ks:ke], esc: kesc}
		i = skipWS(d, ke)
		if i >= len(d) || d[i] != ':' {
			return nil, i, false, synErr(i, "expected : after member name")
		}
		vs := skipWS(d, i+1)
		vesc := false
		if vs < len(d) && d[vs] == '"' {
			i, vesc, err = skipString(d, vs)
		} else {
			i, err = skipValue(d, vs, 2)
		}
		if err != nil {
			return nil, i, false, err
		}
		v := d[vs:i]
		switch {
		case m.is("type"):
			typ, hasType = stringValue(v)
			ok = ok && hasType
		case m.is("text"):
			setSlot(&bodyName, "text", &body, v, vesc)
		case m.is("thinking"):
			setSlot(&bodyName, "thinking", &body, v, vesc)
		case m.is("data"):
			setSlot(&bodyName, "data", &body, v, vesc)
		case m.is("textSignature"):
			setSlot(&sigName, "textSignature", &sig, v, vesc)
		case m.is("thinkingSignature"):
			setSlot(&sigName, "thinkingSignature", &sig, v, vesc)
		case m.is("mimeType"):
			setSlot(&sigName, "mimeType", &sig, v, vesc)
		case m.is("redacted"):
			hasRed = true
			switch string(v) {
			case "true":
				redacted = true
			case "false":
				redacted = false
			default:
				ok = false
			}
		default:
			ok = false
		}
		i = skipWS(d, i)
		if i >= len(d) {
			return nil, i, false, synErr(i, "unterminated object")
		}
		if d[i] == '}' {
			i++
			break
		}
		if d[i] != ',' {
			return nil, i, false, synErr(i, "expected , or } in object")
		}
		i = skipWS(d, i+1)
	}
	end = i
	if !ok || !hasType {
		return nil, end, false, nil
	}
	in := func(name, allowed string) bool { return name == "" || name == allowed }
	switch typ {
	case ai.ContentText:
		if !hasRed && in(bodyName, "text") && in(sigName, "textSignature") {
			return &ai.TextContent{Text: body, TextSignature: sig}, end, true, nil
		}
	case ai.ContentThinking:
		if in(bodyName, "thinking") && in(sigName, "thinkingSignature") {
			return &ai.ThinkingContent{Thinking: body, ThinkingSignature: sig, Redacted: redacted}, end, true, nil
		}
	case ai.ContentImage:
		if !hasRed && in(bodyName, "data") && in(sigName, "mimeType") {
			return &ai.ImageContent{Data: body, MIMEType: sig}, end, true, nil
		}
	}
	return nil, end, false, nil
}
