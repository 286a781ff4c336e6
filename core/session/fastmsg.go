package session

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// decodeMessage decodes a message as message.Decode does, faster for the
// bulk of a session: for user, assistant and tool-result messages the
// content array (nearly all of a session's bytes) is decoded here in one
// pass, and the other members go through core/ai's decoder as a small
// object without the content. A block or member this fast path does not
// know exactly falls back to core/ai, so the result is always the one
// message.Decode gives (FuzzDecodeMessage checks it).
func decodeMessage(raw []byte) (ai.Message, error) {
	var (
		role       string
		roleOK     bool
		content    []byte
		nContent   int
		others     []member
		otherBytes int
	)
	err := eachMember(raw, func(m member) bool {
		switch {
		case m.is("content"):
			content = m.Value
			nContent++
		case m.is("role"):
			role, roleOK = stringValue(m.Value)
			others = append(others, m)
			otherBytes += len(m.Key) + len(m.Value) + 2
		default:
			// encoding/json matches member names without regard to case:
			// a "Content" member would compete with "content".
			if strings.EqualFold(m.name(), "content") {
				nContent = 2
			}
			others = append(others, m)
			otherBytes += len(m.Key) + len(m.Value) + 2
		}
		return true
	})
	if err != nil {
		return message.Decode(raw) // not an object: the reference decides
	}
	fast := roleOK && nContent == 1 && (role == string(ai.RoleUser) || role == string(ai.RoleAssistant) || role == string(ai.RoleToolResult))
	if !fast {
		return message.Decode(raw)
	}
	blocks, ok := decodeContent(content)
	if !ok {
		return message.Decode(raw)
	}
	reduced := make([]byte, 0, otherBytes+2)
	reduced = append(reduced, '{')
	for i, m := range others {
		if i > 0 {
			reduced = append(reduced, ',')
		}
		reduced = append(reduced, m.Key...)
		reduced = append(reduced, ':')
		reduced = append(reduced, m.Value...)
	}
	reduced = append(reduced, '}')
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

// decodeContent decodes a content value that is a string or an array of
// plain text, thinking and image blocks; ok is false for anything else.
func decodeContent(v []byte) (ai.ContentList, bool) {
	if s, ok := stringValue(v); ok {
		return ai.ContentList{ai.Text(s)}, true
	}
	if len(v) == 0 || v[0] != '[' {
		return nil, false
	}
	out := ai.ContentList{}
	ok := true
	eachElement(v, func(el []byte) bool {
		var c ai.Content
		if c, ok = decodeBlock(el); !ok {
			return false
		}
		out = append(out, c)
		return true
	})
	return out, ok
}

// decodeBlock decodes one text, thinking or image block whose members are
// exactly the ones core/ai knows for its type, with string (and, for
// "redacted", boolean) values.
func decodeBlock(el []byte) (ai.Content, bool) {
	if len(el) == 0 || el[0] != '{' {
		return nil, false
	}
	var (
		typ, body, sig      string
		hasType             bool
		bodyName, sigName   string
		redacted, hasRedact bool
		ok                  = true
	)
	setSlot := func(name *string, n string, dst *string, v []byte) bool {
		if *name != "" && *name != n {
			return false
		}
		s, isStr := stringValue(v)
		if !isStr {
			return false
		}
		*name, *dst = n, s
		return true
	}
	eachMember(el, func(m member) bool {
		switch {
		case m.is("type"):
			typ, hasType = stringValue(m.Value)
			ok = hasType
		case m.is("text"):
			ok = setSlot(&bodyName, "text", &body, m.Value)
		case m.is("thinking"):
			ok = setSlot(&bodyName, "thinking", &body, m.Value)
		case m.is("data"):
			ok = setSlot(&bodyName, "data", &body, m.Value)
		case m.is("textSignature"):
			ok = setSlot(&sigName, "textSignature", &sig, m.Value)
		case m.is("thinkingSignature"):
			ok = setSlot(&sigName, "thinkingSignature", &sig, m.Value)
		case m.is("mimeType"):
			ok = setSlot(&sigName, "mimeType", &sig, m.Value)
		case m.is("redacted"):
			hasRedact = true
			switch string(m.Value) {
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
		return ok
	})
	if !ok || !hasType {
		return nil, false
	}
	in := func(name string, allowed ...string) bool {
		if name == "" {
			return true
		}
		for _, a := range allowed {
			if name == a {
				return true
			}
		}
		return false
	}
	switch typ {
	case ai.ContentText:
		if hasRedact || !in(bodyName, "text") || !in(sigName, "textSignature") {
			return nil, false
		}
		return &ai.TextContent{Text: body, TextSignature: sig}, true
	case ai.ContentThinking:
		if !in(bodyName, "thinking") || !in(sigName, "thinkingSignature") {
			return nil, false
		}
		return &ai.ThinkingContent{Thinking: body, ThinkingSignature: sig, Redacted: redacted}, true
	case ai.ContentImage:
		if hasRedact || !in(bodyName, "data") || !in(sigName, "mimeType") {
			return nil, false
		}
		return &ai.ImageContent{Data: body, MIMEType: sig}, true
	}
	return nil, false
}
