package session

import (
	"encoding/json"
	"testing"
)

// TestHeaderMarshalJSON: json.Marshal of a Header gives the file's header
// object (type "session", omp's lower-camel keys, empty optional fields
// left out), which parseHeader reads back unchanged. `gopi --mode json`
// prints its first line this way.
func TestHeaderMarshalJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		h    Header
		want string
	}{
		{Header{Version: 3, ID: "01a2", Timestamp: "2026-01-02T03:04:05.678Z", Cwd: "/w"},
			`{"type":"session","version":3,"id":"01a2","timestamp":"2026-01-02T03:04:05.678Z","cwd":"/w"}`},
		{Header{Version: 3, ID: "x", Timestamp: "t", Cwd: "/a \"b\"", ParentSession: "p", Title: "T", TitleSource: "auto"},
			`{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/a \"b\"","parentSession":"p","title":"T","titleSource":"auto"}`},
	} {
		got, err := json.Marshal(tc.h)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("json.Marshal(%+v)\n got %s\nwant %s", tc.h, got, tc.want)
		}
		back, err := parseHeader(got)
		if err != nil || back != tc.h {
			t.Errorf("parseHeader(%s) = %+v, %v; want %+v", got, back, err, tc.h)
		}
	}
}
