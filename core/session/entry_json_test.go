package session

import (
	"encoding/json"
	"testing"
)

// An entry marshals as its file line: the same bytes the file holds for an
// entry of a known type, the line as read for an unknown type.
func TestEntryMarshalJSON(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	m := must[*Manager](t)(Create(opts))
	u := must[string](t)(m.AppendMessage(user("hello")))
	must[string](t)(m.AppendMessage(assistant("hi")))
	l := must[string](t)(m.Record(Label{TargetID: u, Label: "start"}))
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
	e, msg, _, err := envelope([]byte(line))
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

// AppendOther stores an entry of the caller's own type with its members;
// the file reads back the same line (an unknown type kept as it is), the
// context ignores it, and gopi's own types are refused.
func TestAppendOther(t *testing.T) {
	t.Parallel()
	opts := testOptions(t)
	m := must[*Manager](t)(Create(opts))
	must[string](t)(m.AppendMessage(user("hello")))
	must[string](t)(m.AppendMessage(assistant("hi")))
	id, err := m.AppendOther("stack_pop", json.RawMessage(`{"type":"ignored","id":"x","backToIndex":2,"summary":"S1"}`))
	if err != nil {
		t.Fatal(err)
	}
	e := m.Entry(id)
	line, _ := json.Marshal(e)
	want := `{"type":"stack_pop","id":"` + id + `","parentId":"` + e.ParentID + `","timestamp":"` + e.Timestamp + `","backToIndex":2,"summary":"S1"}`
	if string(line) != want {
		t.Errorf("entry %s\nwant  %s", line, want)
	}
	if n := len(m.BuildContext().Messages); n != 2 {
		t.Errorf("%d messages in the context", n)
	}
	for _, bad := range []string{"message", "compaction", "custom", "session", "", "has space"} {
		if _, err := m.AppendOther(bad, nil); err == nil {
			t.Errorf("type %q accepted", bad)
		}
	}
	if _, err := m.AppendOther("x", json.RawMessage(`[1]`)); err == nil {
		t.Error("a list accepted as an entry")
	}
	m.Close()
	m2 := must[*Manager](t)(Open(m.File(), opts))
	defer m2.Close()
	back := m2.Entry(id)
	if back == nil || string(back.Raw()) != want || back.Type != "stack_pop" {
		t.Fatalf("read back %+v", back)
	}
}
