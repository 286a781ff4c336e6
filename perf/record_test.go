package perf

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestRecordsRoundTrip(t *testing.T) {
	recs := []Record{{
		Area: "search", Case: "grep goroot/literal -c", Tool: "gopi", Metric: "wall", Unit: "ms",
		Samples: []float64{12.5, 13, 12.75}, Pair: "rg", Lower: true, Source: "alternated",
		Machine: "2 CPUs", Load: 3.5, Commit: "abc123", Date: "2026-11-30T05:00:00Z",
	}}
	var buf bytes.Buffer
	if err := WriteRecords(&buf, recs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecords(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Fatalf("round trip:\n%+v\n%+v", got, recs)
	}
}

func TestReadRecordsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{\"area\":\"a\"}\n", "line 1: record without case, tool, metric"},
		{"\n{\"area\":\"a\",\"case\":\"c\",\"tool\":\"t\",\"metric\":\"m\",\"samples\":[]}", "line 2: record a/c/t/m has no samples"},
		{"{\"area\":\"a\",\"bogus\":1}", "line 1: not a benchmark record"},
		{"not json", "line 1: not a benchmark record"},
	} {
		_, err := ReadRecords(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzReadRecords(f *testing.F) {
	f.Add(`{"area":"a","case":"c","tool":"t","metric":"wall","unit":"ms","samples":[1,2],"lower":true,"source":"x","machine":"m","load":1,"commit":"c","date":"d"}`)
	f.Add("\n\n")
	f.Add(`{"area":"a","case":"c","tool":"t","metric":"m","samples":[1]} {"x":1}`)
	f.Fuzz(func(t *testing.T, in string) {
		recs, err := ReadRecords(strings.NewReader(in))
		if err != nil {
			return
		}
		// What was read must survive a write and a second read unchanged.
		var buf bytes.Buffer
		if err := WriteRecords(&buf, recs); err != nil {
			t.Fatal(err)
		}
		again, err := ReadRecords(&buf)
		if err != nil {
			t.Fatalf("re-reading written records: %v", err)
		}
		if len(again) != len(recs) {
			t.Fatalf("%d records became %d", len(recs), len(again))
		}
		for i := range recs {
			if recs[i].Key() != again[i].Key() || len(recs[i].Samples) != len(again[i].Samples) {
				t.Fatalf("record %d changed: %+v vs %+v", i, recs[i], again[i])
			}
		}
	})
}
