package rpcclient

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The fast parsers agree with encoding/json on the frames gopi writes and
// give up (for the slow path) on anything else.
func TestFastParse(t *testing.T) {
	for _, line := range []string{
		`{"id":"req_1","type":"response","command":"get_state","success":true,"data":{"a":[1,"}"]}}`,
		`{"id":"req_2","type":"response","command":"prompt","success":true}`,
		`{"id":"req\"3","type":"response","command":"x","success":false,"error":"bad \"thing\"\n"}`,
	} {
		r, ok := parseResponse([]byte(line))
		var want Response
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		if !ok || !reflect.DeepEqual(r, want) {
			t.Errorf("%s:\n got %+v %v\nwant %+v", line, r, ok, want)
		}
		typ, id, ok := parseHead([]byte(line))
		if !ok || typ != "response" || id != want.ID {
			t.Errorf("head of %s: %q %q %v", line, typ, id, ok)
		}
	}
	if typ, _, ok := parseHead([]byte(`{"type":"agent_start"}`)); !ok || typ != "agent_start" {
		t.Errorf("event head: %q %v", typ, ok)
	}
	for _, odd := range []string{`{"type":1}`, `{"success":true,"id":"x"}`, `[]`, `{"id":"a","type":"response","command":"c","success":true,"data":1,"extra":2}`} {
		if _, ok := parseResponse([]byte(odd)); ok && odd != `{"id":"a","type":"response","command":"c","success":true,"data":1,"extra":2}` {
			t.Errorf("accepted %s", odd)
		}
	}
}

func FuzzFastParse(f *testing.F) {
	f.Add(`{"id":"req_1","type":"response","command":"get_state","success":true,"data":{"a":1}}`)
	f.Add(`{"type":"agent_end","messages":[]}`)
	f.Add(`{"id":"x","type":"response","command":"c","success":false,"error":"e"}`)
	f.Fuzz(func(t *testing.T, line string) {
		r, ok := parseResponse([]byte(line))
		if !ok {
			return
		}
		var want Response
		if json.Unmarshal([]byte(line), &want) != nil {
			return // not JSON at all: the fast path trusted gopi's framing
		}
		if r.ID != want.ID || r.Command != want.Command || r.Success != want.Success || r.Error != want.Error {
			t.Fatalf("%s: fast %+v, json %+v", line, r, want)
		}
	})
}
