package tool

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeArgs feeds arbitrary bytes to the argument decoder: it must
// never panic, must reject what is not a JSON object, and whatever it
// accepts must validate cleanly and survive Decode into a struct.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{`{"path":"a"}`, `{"path":"a","limit":"5"}`, `{}`, `[]`, `null`, `{"path":3}`,
		`{"path":"a","paths":["x",1]}`, `{"path":"a","mode":"b","flag":"true"}`, `{"path":"a","extra":{}}`, `{"path":"a","limit":1e400}`} {
		f.Add([]byte(s))
	}
	def := Definition{Name: "fuzz", Parameters: &Schema{Type: "object", Required: []string{"path"}, Properties: map[string]*Schema{
		"path":  {Type: "string", MinLength: Ptr(1)},
		"limit": {Type: "integer", Minimum: Ptr(1.0)},
		"paths": {Type: "array", Items: String(""), MinItems: Ptr(1)},
		"mode":  {Type: "string", Enum: []any{"a", "b"}},
		"flag":  Boolean(""),
	}}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := DecodeArgs(def, json.RawMessage(raw))
		if err != nil {
			if _, ok := err.(*ValidationError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if p := Validate(def.Parameters, map[string]any(args)); len(p) > 0 {
			t.Fatalf("accepted arguments fail validation: %v", p)
		}
		var v struct {
			Path  string   `json:"path"`
			Limit int64    `json:"limit"`
			Paths []string `json:"paths"`
			Flag  bool     `json:"flag"`
		}
		if err := args.Decode(&v); err != nil && v.Path == "" {
			t.Logf("decode: %v", err) // huge integers may not fit; that is a clean error
		}
	})
}
