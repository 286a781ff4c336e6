package session

import (
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// Loading a session file validates every line and decodes every payload
// but one: messages, nearly all of a long session's bytes, stay as JSON
// (Entry.pending) until something needs them. Continuing a session needs
// only the messages its context sends, from the latest compaction's kept
// part on; the conversation before that, abandoned branches and the tool
// output they hold are decoded only when asked for (Entries, Path, Tree, …).
// Every accessor that returns entries decodes them first, so callers never
// see the difference, except in Problems: a message that cannot be
// decoded is reported once it has been.

// msgHead is what the pass that validates a line learns of its message
// without decoding it: the role and, for a tool result, the tool name.
// Each is known only when the message has exactly one member of that name
// in any letter case (encoding/json matches names so), the role's spelled
// exactly "role", and its value is a string; decoding then gives the same
// value (a message that fails to decode keeps the role, as an opaque
// message). The legacy role hookMessage, which decodes to role custom, is
// left unknown. It lets the store pick the few entries a question is about
// (SelectPath, the model of the last answer) without decoding the rest.
type msgHead struct {
	role, toolName       string
	roleKnown, toolKnown bool
}

// mayBe reports whether a pending message may have role r (and, when tool
// is not "", be a result of that tool).
func (h msgHead) mayBe(r ai.Role, tool string) bool {
	if h.roleKnown && h.role != string(r) {
		return false
	}
	return tool == "" || r != ai.RoleToolResult || !h.toolKnown || h.toolName == tool
}

// scanHead validates the object at d[i] == '{' (a message at depth 1 of a
// line, so its values are at depth 2) like skipObject, and returns the
// offset past it and its head.
func scanHead(d []byte, i int) (int, msgHead, error) {
	var h msgHead
	roles, tools := 0, 0
	roleExact, roleStr, toolStr := false, false, false
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, h, nil
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return i, h, synErr(i, "expected a member name")
		}
		ks := i
		ke, esc, err := skipString(d, i)
		if err != nil {
			return ke, h, err
		}
		key := member{Key: d[ks:ke], esc: esc}
		i = skipWS(d, ke)
		if i >= len(d) || d[i] != ':' {
			return i, h, synErr(i, "expected : after member name")
		}
		vs := skipWS(d, i+1)
		if i, err = skipValue(d, vs, 2); err != nil {
			return i, h, err
		}
		switch {
		case key.isFold("role"):
			roles++
			roleExact = key.is("role")
			h.role, roleStr = stringValue(d[vs:i])
		case key.isFold("toolName"):
			tools++
			h.toolName, toolStr = stringValue(d[vs:i])
		}
		i = skipWS(d, i)
		if i >= len(d) {
			return i, h, synErr(i, "unterminated object")
		}
		if d[i] == '}' {
			h.roleKnown = roles == 1 && roleExact && roleStr && h.role != string(message.RoleHookMessage)
			h.toolKnown = tools == 1 && toolStr
			return i + 1, h, nil
		}
		if d[i] != ',' {
			return i, h, synErr(i, "expected , or } in object")
		}
		i = skipWS(d, i+1)
	}
}

// decode decodes the pending messages among es, on all CPUs when there are
// many, reports those that cannot be decoded and restores their images'
// blob references, as loading did before it left messages for later. The
// caller holds m.mu.
func (m *Manager) decode(es []*Entry) {
	var todo []*Entry
	for _, e := range es {
		if e.pending != nil {
			todo = append(todo, e)
		}
	}
	if len(todo) == 0 {
		return
	}
	errs := make([]error, len(todo))
	decodeAll(len(todo), func(i int) {
		errs[i] = todo[i].decodePayload(nil, todo[i].pending)
	})
	m.cache.store = m.blobs
	n := len(m.problems)
	for i, e := range todo {
		m.problems = append(m.problems, payloadProblems(e, e.pending, errs[i], &m.cache)...)
		e.pending = nil
	}
	if len(m.problems) > n {
		sortProblems(m.problems)
	}
}

// decodeOne decodes e if it is pending and returns it; the caller holds
// m.mu.
func (m *Manager) decodeOne(e *Entry) *Entry {
	if e != nil && e.pending != nil {
		m.decode([]*Entry{e})
	}
	return e
}
