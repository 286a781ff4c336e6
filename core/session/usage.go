package session

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// RequestUsage is what one assistant message of a session file records
// about the request that produced it: who answered, the tokens and cost
// of its usage, how it ended and how long it took, and the tools it
// called. It is read without decoding the message's text (see ScanUsage).
type RequestUsage struct {
	Provider, Model, StopReason string
	Input, Output               int64   // usage.input, usage.output tokens
	CacheRead, CacheWrite       int64   // usage.cacheRead, usage.cacheWrite tokens
	Cost                        float64 // usage.cost.total, in dollars
	Duration, TTFT              float64 // milliseconds; -1 when the message has none
	Timestamp                   int64   // the message's Unix milliseconds (0: none)
	Tools                       []string
}

// assistantRole is the marker every assistant message line holds; lines
// without it are passed over without being parsed.
var assistantRole = []byte(`"assistant"`)

// ScanUsage reads one line of a session file and, when it is a message
// entry holding an assistant message, fills u (its Tools reused) and
// returns true. Other entries, and lines that are not valid JSON objects,
// return false. Only the members it reports are looked at: the content's
// text, thinking and tool arguments are skipped, not decoded, so a scan of
// many sessions costs little more than reading them.
func ScanUsage(line []byte, u *RequestUsage) bool {
	if !bytes.Contains(line, assistantRole) {
		return false
	}
	isMessage, assistant := false, false
	// One pass: the message is read where the line is validated.
	scan := func(key member, d []byte, i int) (int, error) {
		if key.is("message") {
			// A later "message" member replaces an earlier one.
			*u = RequestUsage{Duration: -1, TTFT: -1, Tools: u.Tools[:0]}
			assistant = false
		}
		if key.is("message") && i < len(d) && d[i] == '{' {
			end, _, err := walkObject(d, i, func(m member, d []byte, i int) (int, error) {
				return scanMessageMember(m, d, i, u)
			}, func(m member) bool {
				if m.is("role") {
					r, _ := stringValue(m.Value)
					assistant = r == "assistant"
				}
				return true
			})
			return end, err
		}
		return skipValue(d, i, 1)
	}
	err := eachMemberScan(line, scan, func(m member) bool {
		if m.is("type") {
			t, _ := stringValue(m.Value)
			isMessage = t == "message"
		}
		return true
	})
	return err == nil && isMessage && assistant
}

// scanMessageMember reads one member of a message object at d[i] into u
// and returns the offset past its value.
func scanMessageMember(m member, d []byte, i int, u *RequestUsage) (int, error) {
	switch {
	case m.is("content") && i < len(d) && d[i] == '[':
		return scanToolNames(d, i, u)
	case m.is("usage") && i < len(d) && d[i] == '{':
		*u = RequestUsage{Provider: u.Provider, Model: u.Model, StopReason: u.StopReason, Duration: u.Duration, TTFT: u.TTFT, Timestamp: u.Timestamp, Tools: u.Tools}
		end, _, err := walkObject(d, i, nil, func(t member) bool {
			switch {
			case t.is("input"):
				u.Input = int64(numberOr(t.Value, 0))
			case t.is("output"):
				u.Output = int64(numberOr(t.Value, 0))
			case t.is("cacheRead"):
				u.CacheRead = int64(numberOr(t.Value, 0))
			case t.is("cacheWrite"):
				u.CacheWrite = int64(numberOr(t.Value, 0))
			case t.is("cost"):
				u.Cost = 0
				if len(t.Value) > 0 && t.Value[0] == '{' {
					_ = eachMember(t.Value, func(c member) bool {
						if c.is("total") {
							u.Cost = numberOr(c.Value, 0)
						}
						return true
					})
				}
			}
			return true
		})
		return end, err
	}
	end, err := skipValue(d, i, 1)
	if err != nil {
		return end, err
	}
	v := d[i:end]
	switch {
	case m.is("provider"):
		u.Provider, _ = stringValue(v)
	case m.is("model"):
		u.Model, _ = stringValue(v)
	case m.is("stopReason"):
		u.StopReason, _ = stringValue(v)
	case m.is("duration"):
		u.Duration = numberOr(v, -1)
	case m.is("ttft"):
		u.TTFT = numberOr(v, -1)
	case m.is("timestamp"):
		u.Timestamp = int64(numberOr(v, 0))
	case m.is("content"):
		u.Tools = u.Tools[:0]
	case m.is("usage"):
		u.Input, u.Output, u.CacheRead, u.CacheWrite, u.Cost = 0, 0, 0, 0, 0
	}
	return end, nil
}

// scanToolNames reads the content array at d[i] == '[', setting u.Tools to
// the names of its toolCall blocks, and returns the offset past it.
func scanToolNames(d []byte, i int, u *RequestUsage) (int, error) {
	u.Tools = u.Tools[:0]
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == ']' {
		return i + 1, nil
	}
	for {
		var end int
		var err error
		if i < len(d) && d[i] == '{' {
			var typ, name []byte
			end, _, err = walkObject(d, i, nil, func(m member) bool {
				switch {
				case m.is("type"):
					typ = m.Value
				case m.is("name"):
					name = m.Value
				}
				return true
			})
			if err == nil && isString(typ, "toolCall") {
				if n := internedString(name); n != "" {
					u.Tools = append(u.Tools, n)
				}
			}
		} else {
			end, err = skipValue(d, i, 1)
		}
		if err != nil {
			return end, err
		}
		i = skipWS(d, end)
		if i >= len(d) {
			return i, synErr(i, "unterminated array")
		}
		if d[i] == ']' {
			return i + 1, nil
		}
		if d[i] != ',' {
			return i, synErr(i, "expected , or ] in array")
		}
		i = skipWS(d, i+1)
	}
}

// isString reports whether the JSON value v is the string s.
func isString(v []byte, s string) bool {
	if len(v) == len(s)+2 && v[0] == '"' && string(v[1:len(v)-1]) == s {
		return true
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return false
	}
	got, ok := stringValue(v)
	return ok && got == s
}

// internedString decodes a JSON string value ("" for anything else),
// returning the same string for the same name: tool names repeat on most
// lines, and looking them up costs no allocation.
func internedString(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if s, ok := knownNames[string(v)]; ok {
		return s
	}
	s, _ := stringValue(v)
	return s
}

// knownNames are the built-in tools' names by their JSON form.
var knownNames = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{"read", "write", "edit", "bash", "search", "grep", "find", "lsp", "python", "notebook", "task", "todo_write", "ask", "fetch", "web_search", "browser", "inspect_image", "ast_grep", "ast_edit", "checkpoint", "rewind", "ssh", "exit_plan_mode", "job", "await", "render_mermaid", "calc", "resolve", "recipe", "irc", "debug", "eval", "github", "generate_image", "search_tool_bm25", "report_tool_issue"} {
		m[`"`+n+`"`] = n
	}
	return m
}()

// numberOr returns the JSON number v, or def when v is not a number.
func numberOr(v []byte, def float64) float64 {
	if len(v) == 0 || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return def
	}
	if len(v) < 16 && v[0] != '-' && (len(v) == 1 || v[0] != '0') {
		// A plain count (most are): digits only.
		n := 0.0
		for _, c := range v {
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + float64(c-'0')
		}
		if n >= 0 {
			return n
		}
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return def
	}
	return f
}

// HeaderCwd returns the working directory a session file's first line (its
// header) records, and whether the line is a session header.
func HeaderCwd(line []byte) (string, bool) {
	var h struct {
		Type string `json:"type"`
		Cwd  string `json:"cwd"`
	}
	if json.Unmarshal(line, &h) != nil || h.Type != "session" {
		return "", false
	}
	return h.Cwd, true
}
