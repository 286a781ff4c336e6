package share

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// didOpenLocked opens a document for c: at the server the first time,
// else by bringing the server's text in step with c's.
func (m *mux) didOpenLocked(c *conn, msg *message) {
	var p struct {
		TextDocument struct {
			URI        string `json:"uri"`
			LanguageID string `json:"languageId"`
			Version    int    `json:"version"`
			Text       string `json:"text"`
		} `json:"textDocument"`
	}
	if json.Unmarshal(msg.Params, &p) != nil || p.TextDocument.URI == "" {
		m.srv.send(*msg)
		return
	}
	td := p.TextDocument
	d := m.st.docs[td.URI]
	c.docs[td.URI] = true
	if d == nil {
		d = &sharedDoc{version: 1, text: td.Text, known: true, openBy: map[*conn]int{c: td.Version}}
		m.st.docs[td.URI] = d
		td.Version = 1
		m.notifyServerLocked("textDocument/didOpen", map[string]any{"textDocument": td})
		return
	}
	m.setTextLocked(c, td.URI, d, td.Version, td.Text)
}

// didChangeLocked passes on c's change of a document: as a change of the
// server's version when the text differs from the server's, else by
// sending c the diagnostics the server has for that text.
func (m *mux) didChangeLocked(c *conn, msg *message) {
	var p struct {
		TextDocument struct {
			URI     string `json:"uri"`
			Version int    `json:"version"`
		} `json:"textDocument"`
		ContentChanges []json.RawMessage `json:"contentChanges"`
	}
	if json.Unmarshal(msg.Params, &p) != nil {
		m.srv.send(*msg)
		return
	}
	uri := p.TextDocument.URI
	d := m.st.docs[uri]
	if d == nil || !c.docs[uri] {
		m.srv.send(*msg)
		return
	}
	if len(p.ContentChanges) == 1 {
		var whole struct {
			Range json.RawMessage `json:"range"`
			Text  *string         `json:"text"`
		}
		if json.Unmarshal(p.ContentChanges[0], &whole) == nil && whole.Range == nil && whole.Text != nil {
			m.setTextLocked(c, uri, d, p.TextDocument.Version, *whole.Text)
			return
		}
	}
	// An incremental change: passed on as it is; the text the server
	// has is no longer known here.
	d.version++
	d.known = false
	d.openBy[c] = p.TextDocument.Version
	m.notifyServerLocked("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": d.version},
		"contentChanges": p.ContentChanges,
	})
}

// setTextLocked records that c has text at version v of a document the
// server has open, telling the server when its text differs.
func (m *mux) setTextLocked(c *conn, uri string, d *sharedDoc, v int, text string) {
	d.openBy[c] = v
	if d.known && d.text == text {
		if pub, ok := m.st.diags[uri]; ok && (pub.version == nil || *pub.version == d.version) {
			c.out.send(message{Method: "textDocument/publishDiagnostics", Params: m.diagnosticsFor(c, uri, pub)})
		}
		return
	}
	d.version++
	d.text, d.known = text, true
	m.notifyServerLocked("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": d.version},
		"contentChanges": []map[string]string{{"text": text}},
	})
}

// closeDocLocked closes a document for c, and at the server when nobody
// else has it open.
func (m *mux) closeDocLocked(c *conn, uri string) {
	delete(c.docs, uri)
	d := m.st.docs[uri]
	if d == nil {
		return
	}
	delete(d.openBy, c)
	if len(d.openBy) == 0 {
		delete(m.st.docs, uri)
		m.notifyServerLocked("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": uri}})
	}
}

// publishLocked keeps the server's diagnostics of a document and sends
// them to every connection, each with its own version.
func (m *mux) publishLocked(params json.RawMessage) {
	var p struct {
		URI     string `json:"uri"`
		Version *int   `json:"version"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	pub := published{params: params, version: p.Version}
	m.st.diags[p.URI] = pub
	for c := range m.conns {
		c.out.send(message{Method: "textDocument/publishDiagnostics", Params: m.diagnosticsFor(c, p.URI, pub)})
	}
}

// diagnosticsFor returns a publication as c is to see it: for a document
// c has open, the version is c's own when the publication is for the text
// the server has now, and -1 (matching no version of c's) when it is for
// an older one.
func (m *mux) diagnosticsFor(c *conn, uri string, pub published) json.RawMessage {
	if pub.version == nil {
		return pub.params
	}
	v, ok := m.clientVersionLocked(c, uri, *pub.version)
	if !ok {
		return pub.params
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(pub.params, &p) != nil {
		return pub.params
	}
	p["version"], _ = json.Marshal(v)
	b, err := json.Marshal(p)
	if err != nil {
		return pub.params
	}
	return b
}

// clientVersionLocked translates the server's version of a document into
// c's: ok is false when c does not have it open.
func (m *mux) clientVersionLocked(c *conn, uri string, serverVersion int) (int, bool) {
	d := m.st.docs[uri]
	if d == nil {
		return 0, false
	}
	v, ok := d.openBy[c]
	if !ok {
		return 0, false
	}
	if serverVersion != d.version {
		return -1, true
	}
	return v, true
}

// rewriteVersionsLocked translates the versioned document identifiers of
// the workspace edits in raw (documentChanges entries) into c's versions,
// so that c's check of an edit against what it sent holds.
func (m *mux) rewriteVersionsLocked(raw json.RawMessage, c *conn) json.RawMessage {
	if !bytes.Contains(raw, []byte(`"documentChanges"`)) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	if !m.walkEditsLocked(v, c) {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}

// walkEditsLocked rewrites, in place, the versions of every
// documentChanges entry found in v; it reports whether it changed one.
func (m *mux) walkEditsLocked(v any, c *conn) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		if dc, ok := x["documentChanges"].([]any); ok {
			for _, e := range dc {
				entry, _ := e.(map[string]any)
				td, _ := entry["textDocument"].(map[string]any)
				uri, _ := td["uri"].(string)
				num, _ := td["version"].(json.Number)
				sv, err := num.Int64()
				if uri == "" || err != nil {
					continue
				}
				if cv, ok := m.clientVersionLocked(c, uri, int(sv)); ok {
					td["version"] = json.Number(strconv.Itoa(cv))
					changed = true
				}
			}
		}
		for k, e := range x {
			if k != "documentChanges" && m.walkEditsLocked(e, c) {
				changed = true
			}
		}
	case []any:
		for _, e := range x {
			if m.walkEditsLocked(e, c) {
				changed = true
			}
		}
	}
	return changed
}
