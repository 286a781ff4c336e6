package compaction

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/internal/golden"
)

func TestSerialize(t *testing.T) {
	exit := 2
	msgs := []ai.Message{
		&ai.UserMessage{Content: ai.ContentList{ai.Text("Fix the build"), &ai.ImageContent{Data: "x", MIMEType: "image/png"}}},
		&ai.AssistantMessage{Content: ai.ContentList{
			&ai.ThinkingContent{Thinking: "Look at the Makefile first."},
			ai.Text("Let me look."),
			&ai.ToolCall{ID: "c1", Name: "read", Arguments: map[string]any{"path": "Makefile", "limit": 20}},
			&ai.ToolCall{ID: "c2", Name: "bash", Arguments: map[string]any{"command": "make 2>&1 | tail"}},
		}},
		&ai.ToolResultMessage{ToolCallID: "c1", ToolName: "read", Content: ai.ContentList{ai.Text("all:\n\tgo build ./...")}},
		&ai.ToolResultMessage{ToolCallID: "c2", ToolName: "bash", IsError: true, Content: ai.ContentList{ai.Text(strings.Repeat("é", 2005))}},
		&message.BashExecution{Command: "git status", Output: "clean", ExitCode: &exit},
		&message.Custom{CustomType: "ext", Content: message.PlainText("An extension says hi.")},
		&message.CompactionSummary{Summary: "Earlier work."},
		&ai.AssistantMessage{Content: ai.ContentList{ai.Text("")}},
	}
	golden.Check(t, "testdata/serialize.golden", Serialize(msgs))
}

func TestFileTags(t *testing.T) {
	d := Details{ReadFiles: []string{"a.go"}, ModifiedFiles: []string{"b.go", "c.go"}}
	if got := WithFileTags("Summary.\n\n<read-files>\nold.go\n</read-files>\n", d); got != "Summary.\n\n<read-files>\na.go\n</read-files>\n<modified-files>\nb.go\nc.go\n</modified-files>" {
		t.Errorf("%q", got)
	}
	if got := WithFileTags("Only text.  \n", Details{}); got != "Only text." {
		t.Errorf("%q", got)
	}
	if got := WithFileTags("", d); !strings.HasPrefix(got, "<read-files>") {
		t.Errorf("%q", got)
	}
	var many []string
	for i := range 23 {
		many = append(many, fmt.Sprintf("f%02d.go", i))
	}
	got := FileTags(Details{ModifiedFiles: many})
	if !strings.Contains(got, "f19.go\n(3 more files not listed)\n</modified-files>") || strings.Contains(got, "f20.go") {
		t.Errorf("%s", got)
	}

	// Written wins over read; read-only files exclude changed ones.
	f := NewFileOps()
	f.AddMessage(&ai.AssistantMessage{Content: ai.ContentList{
		&ai.ToolCall{Name: "read", Arguments: map[string]any{"path": "x.go"}},
		&ai.ToolCall{Name: "write", Arguments: map[string]any{"path": "x.go"}},
		&ai.ToolCall{Name: "read", Arguments: map[string]any{"path": "y.go"}},
		&ai.ToolCall{Name: "bash", Arguments: map[string]any{"path": "z.go"}},
		&ai.ToolCall{Name: "edit", Arguments: map[string]any{}},
	}})
	if l := f.Lists(); fmt.Sprint(l.ReadFiles, l.ModifiedFiles) != "[y.go] [x.go]" {
		t.Errorf("%+v", l)
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"ééé", 3, "ééé"}, // 6 bytes, 3 characters
		{"éééé", 3, "ééé\n\n[1 more characters left out]"},
		{"abcdef", 4, "abcd\n\n[2 more characters left out]"},
		{"", 0, ""},
	} {
		if got := cut(tc.s, tc.max); got != tc.want {
			t.Errorf("cut(%q, %d) = %q, want %q", tc.s, tc.max, got, tc.want)
		}
	}
}
