package session

import (
	"encoding/json"
	"reflect"
	"testing"
)

// refUsage decodes a line with encoding/json into maps (exact member
// names, the last of duplicates, as the scanner reads them): what
// ScanUsage must find.
func refUsage(line []byte) (RequestUsage, bool) {
	var e map[string]any
	if json.Unmarshal(line, &e) != nil {
		return RequestUsage{}, false
	}
	m, _ := e["message"].(map[string]any)
	if e["type"] != "message" || m == nil || m["role"] != "assistant" {
		return RequestUsage{}, false
	}
	str := func(v any) string { s, _ := v.(string); return s }
	num := func(v any, def float64) float64 {
		if f, ok := v.(float64); ok {
			return f
		}
		return def
	}
	u := RequestUsage{Provider: str(m["provider"]), Model: str(m["model"]), StopReason: str(m["stopReason"]),
		Duration: num(m["duration"], -1), TTFT: num(m["ttft"], -1), Timestamp: int64(num(m["timestamp"], 0)), Tools: []string{}}
	if usage, ok := m["usage"].(map[string]any); ok {
		u.Input, u.Output = int64(num(usage["input"], 0)), int64(num(usage["output"], 0))
		u.CacheRead, u.CacheWrite = int64(num(usage["cacheRead"], 0)), int64(num(usage["cacheWrite"], 0))
		if cost, ok := usage["cost"].(map[string]any); ok {
			u.Cost = num(cost["total"], 0)
		}
	}
	content, _ := m["content"].([]any)
	for _, c := range content {
		if b, ok := c.(map[string]any); ok && b["type"] == "toolCall" && str(b["name"]) != "" {
			u.Tools = append(u.Tools, str(b["name"]))
		}
	}
	return u, true
}

var usageSeeds = []string{
	`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"\"role\":\"assistant\" {"},{"type":"toolCall","id":"t1","name":"read","arguments":{"path":"a","model":"x"}},{"type":"toolCall","id":"t2","name":"bash","arguments":{}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":17,"output":8,"cacheRead":1220,"cacheWrite":2798,"totalTokens":4043,"cost":{"input":0.1,"total":0.0110295}},"stopReason":"toolUse","timestamp":1771237256000,"duration":16003,"ttft":1586}}`,
	`{"type":"message","id":"b","message":{"role":"user","content":"assistant"}}`,
	`{"type":"message","id":"c","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"provider":"openai","model":"gpt-5","usage":{"input":1,"output":2},"stopReason":"error","errorMessage":"boom"}}`,
	`{"type":"custom","data":{"role":"assistant"}}`,
	`{"type":"message","message":{"role":"assistant"`,
	`{"type":"message","message":{"role":"assistant","usage":{"input":"x"},"duration":null}}`,
}

func TestScanUsageMatchesEncodingJSON(t *testing.T) {
	for _, s := range usageSeeds {
		var got RequestUsage
		ok := ScanUsage([]byte(s), &got)
		want, wantOK := refUsage([]byte(s))
		if ok != wantOK {
			t.Fatalf("%s: ScanUsage says %v, encoding/json %v", s, ok, wantOK)
		}
		if ok && got.Tools == nil {
			got.Tools = []string{}
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", s, got, want)
		}
	}
	var u RequestUsage
	if !ScanUsage([]byte(usageSeeds[0]), &u) || !reflect.DeepEqual(u.Tools, []string{"read", "bash"}) || u.Cost != 0.0110295 || u.TTFT != 1586 {
		t.Fatalf("%+v", u)
	}
}

// ScanUsage reads what encoding/json reads from any line it accepts, and
// accepts every assistant message encoding/json decodes.
func FuzzScanUsage(f *testing.F) {
	for _, s := range usageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var got RequestUsage
		ok := ScanUsage(line, &got)
		want, wantOK := refUsage(line)
		if ok != wantOK {
			// encoding/json refuses numbers out of float64's range that
			// the scanner reads as absent; nothing else may differ.
			if ok && json.Valid(line) {
				return
			}
			t.Fatalf("ScanUsage says %v, encoding/json %v: %q", ok, wantOK, line)
		}
		if !ok {
			return
		}
		if got.Tools == nil {
			got.Tools = []string{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", line, got, want)
		}
	})
}
