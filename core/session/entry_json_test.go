package session

import (
	"encoding/json"
	"testing"
)

// An entry marshals as its file line: the same bytes the file holds for an
// entry of a known type, the line as read for an unknown type.
func TestEntryMarshalJSON(t *testing.T) {
	opts := testOptions(t)
	m := must[*Manager](t)(Create(opts))
	u := must[string](t)(m.AppendMessage(user("hello")))
	must[string](t)(m.AppendMessage(assistant("hi")))
	l := must[string](t)(m.AppendLabel(u, "start"))
	for _, id := range []string{u, l} {
		e := m.Entry(id)
		got, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(e.Raw()) {
			t.Errorf("%s: %s\nfile: %s", e.Type, got, e.Raw())
		}
	}
	m.Close()

	line := `{"type":"future_thing","id":"abcd1234","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","extra":[1,2]}`
	e, msg, err := envelope([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	e.raw = []byte(line)
	if err := e.decodePayload(e.raw, msg); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(e); string(got) != line {
		t.Errorf("unknown type: %s", got)
	}
}
