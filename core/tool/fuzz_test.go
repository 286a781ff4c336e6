package tool

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
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

// FuzzDiagnosticReport feeds what a language server may send (message,
// source, code, position, severity) to the diagnostics report: it must
// never panic, a diagnostic becomes one "file:line:col [severity] …"
// entry, and a one-line entry is grouped under its file with its
// position kept.
func FuzzDiagnosticReport(f *testing.F) {
	f.Add("undefined: x", "compiler", []byte(`"UndeclaredName"`), 3, 1, 1)
	f.Add("unused\nfor further information visit https://x", "", []byte(`2304`), 0, 0, 2)
	f.Add("a:1:2 b", "s:1:2 ", []byte(`null`), -1, -5, 9)
	f.Add("", "", []byte(`{"x":[1]}`), 1<<30, 7, 0)
	f.Fuzz(func(t *testing.T, msg, source string, code []byte, line, char, sev int) {
		d := protocol.Diagnostic{Range: protocol.Range{Start: protocol.Position{Line: line, Character: char}, End: protocol.Position{Line: line, Character: char}},
			Severity: protocol.DiagnosticSeverity(sev), Source: source, Message: msg, Code: json.RawMessage(code)}
		entry := FormatDiagnostic(d, "pkg/f.go")
		prefix := fmt.Sprintf("pkg/f.go:%d:%d [", line+1, char+1)
		if !strings.HasPrefix(entry, prefix) {
			t.Fatalf("entry %q does not start with %q", entry, prefix)
		}
		grouped := GroupDiagnosticMessages([]string{entry})
		if !strings.Contains(entry, "\n") && line >= 0 && line < 1<<31 && char >= 0 && char < 1<<31 {
			if want := "# pkg/\n## f.go\n  " + strings.TrimPrefix(entry, "pkg/f.go:"); grouped != want {
				t.Fatalf("grouped %q, want %q", grouped, want)
			}
		}
		fd := MergeFileDiagnostics(&FileDiagnostics{Messages: []string{entry}})
		if fd.Summary == "" || fd.Summary == "OK" {
			t.Fatalf("summary %q of one entry", fd.Summary)
		}
		_ = fd.Notice()
	})
}
