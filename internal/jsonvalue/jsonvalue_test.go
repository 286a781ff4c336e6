package jsonvalue

import (
	"encoding/json"
	"testing"
)

func TestType(t *testing.T) {
	var decoded []any
	if err := json.Unmarshal([]byte(`[null, "s", 1.5, true, [1], {"a": 1}]`), &decoded); err != nil {
		t.Fatal(err)
	}
	want := []string{"null", "string", "number", "boolean", "array", "object"}
	for i, v := range decoded {
		if got := Type(v); got != want[i] {
			t.Errorf("Type(%#v) = %q, want %q", v, got, want[i])
		}
	}
	if Type(json.Number("2")) != "number" || Type(3) != "" {
		t.Error("json.Number is a number; an int is not a decoded value")
	}
}

func TestAppendUnique(t *testing.T) {
	list := AppendUnique(nil, "a")
	list = AppendUnique(list, map[string]any{"k": []any{1.0}})
	list = AppendUnique(list, "a")
	list = AppendUnique(list, map[string]any{"k": []any{1.0}})
	list = AppendUnique(list, 1.0)
	if len(list) != 3 {
		t.Fatalf("%v: equal values appended twice", list)
	}
}
