package acp

import (
	"reflect"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
)

func TestToolKind(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]sdk.ToolKind{
		"read": sdk.ToolKindRead, "write": sdk.ToolKindEdit, "edit": sdk.ToolKindEdit, "ast_edit": sdk.ToolKindEdit,
		"resolve": sdk.ToolKindEdit, "search": sdk.ToolKindSearch, "find": sdk.ToolKindSearch, "ast_grep": sdk.ToolKindSearch,
		"bash": sdk.ToolKindExecute, "fetch": sdk.ToolKindFetch, "custom": sdk.ToolKindOther,
		"eval": sdk.ToolKindExecute, "web_search": sdk.ToolKindFetch, "browser": sdk.ToolKindFetch, "github": sdk.ToolKindFetch,
	} {
		if got := toolKind(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

func TestCallPathsAndTitles(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv("/work/p")
	for _, c := range []struct {
		name  string
		args  map[string]any
		paths []string
		title string
	}{
		{"read", map[string]any{"path": "src/a.go:10-20"}, []string{"/work/p/src/a.go"}, "Read /work/p/src/a.go"},
		{"write", map[string]any{"path": "/tmp/x.txt", "content": "x"}, []string{"/tmp/x.txt"}, "Write /tmp/x.txt"},
		{"edit", map[string]any{"path": "a.go", "edits": []any{map[string]any{"old_text": "x", "new_text": "y"}}}, []string{"/work/p/a.go"}, "Edit /work/p/a.go"},
		{"edit", map[string]any{"file": "a.go", "steps": []any{map[string]any{"kbd": []any{"dd"}}}}, []string{"/work/p/a.go"}, "Edit /work/p/a.go"},
		{"edit", map[string]any{"input": "@@ a.go\n= 1ab..2cd\n~x\n@@ b/c.go\n+ 3ef\n~y\n"}, []string{"/work/p/a.go", "/work/p/b/c.go"}, "Edit /work/p/a.go, /work/p/b/c.go"},
		{"edit", map[string]any{"input": "*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** End Patch"}, []string{"/work/p/a.go", "/work/p/b.go"}, "Edit /work/p/a.go, /work/p/b.go"},
		{"search", map[string]any{"pattern": "TODO", "paths": []any{"src", "*.go"}}, nil, "Search TODO in src, *.go"},
		{"find", map[string]any{"paths": []any{"**/*.md"}}, nil, "Find **/*.md"},
		{"ast_edit", map[string]any{"ops": []any{}, "paths": []any{"src/", "*.ts"}}, []string{"/work/p/src"}, "AST Edit /work/p/src"},
		{"resolve", map[string]any{"action": "apply", "reason": "ok"}, nil, "Resolve apply"},
		{"checkpoint", map[string]any{"goal": "find the retry logic"}, nil, "Checkpoint find the retry logic"},
		{"rewind", map[string]any{"report": "It is in retry.go."}, nil, "Rewind"},
		{"recipe", map[string]any{"op": "test --watch"}, nil, "Run test --watch"},
		{"inspect_image", map[string]any{"path": "shot.png", "question": "?"}, []string{"/work/p/shot.png"}, "InspectImage /work/p/shot.png"},
		{"render_mermaid", map[string]any{"mermaid": "graph TD; A-->B"}, nil, "RenderMermaid"},
	} {
		paths := callPaths(env, c.name, c.args)
		if !reflect.DeepEqual(paths, c.paths) {
			t.Errorf("%s %v: paths %v, want %v", c.name, c.args, paths, c.paths)
		}
		if got := toolTitle(c.name, c.args, paths); got != c.title {
			t.Errorf("%s %v: title %q, want %q", c.name, c.args, got, c.title)
		}
	}
}

func TestPromptText(t *testing.T) {
	t.Parallel()
	mime := "image/png"
	blocks := []sdk.ContentBlock{
		sdk.TextBlock("Explain "),
		sdk.ResourceLinkBlock("a.go", "file:///work/p/a.go"),
		sdk.TextBlock(" and "),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///work/p/b.go", Text: "package b\n"}}),
		sdk.ImageBlock("aGk=", "image/jpeg"),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{BlobResourceContents: &sdk.BlobResourceContents{Uri: "file:///work/p/s.png", Blob: "cG5n", MimeType: &mime}}),
	}
	text, images := promptText(blocks)
	want := "<file name=\"/work/p/b.go\">\npackage b\n</file>\n<file name=\"/work/p/s.png\"></file>\nExplain @/work/p/a.go and @/work/p/b.go@/work/p/s.png"
	if text != want {
		t.Errorf("text:\n%s\nwant:\n%s", text, want)
	}
	if len(images) != 2 || images[0].MIMEType != "image/jpeg" || images[1].Data != "cG5n" {
		t.Errorf("images %+v", images)
	}
}

func TestStopReason(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m    *ai.AssistantMessage
		want sdk.StopReason
		err  string
	}{
		{nil, sdk.StopReasonEndTurn, ""},
		{&ai.AssistantMessage{StopReason: ai.StopReasonStop}, sdk.StopReasonEndTurn, ""},
		{&ai.AssistantMessage{StopReason: ai.StopReasonLength}, sdk.StopReasonMaxTokens, ""},
		{&ai.AssistantMessage{StopReason: ai.StopReasonAborted}, sdk.StopReasonCancelled, ""},
		{&ai.AssistantMessage{StopReason: ai.StopReasonError, ErrorMessage: "The model refused to answer (stop_reason: refusal)"}, sdk.StopReasonRefusal, ""},
		{&ai.AssistantMessage{StopReason: ai.StopReasonError, ErrorMessage: "the provider's content filter stopped the response"}, sdk.StopReasonRefusal, ""},
		{&ai.AssistantMessage{StopReason: ai.StopReasonError, ErrorMessage: "429 rate limited"}, "", "the model request failed: 429 rate limited"},
	} {
		got, err := stopReason(c.m)
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("%+v: %q %v", c.m, got, err)
		}
	}
}

func TestHunkTexts(t *testing.T) {
	t.Parallel()
	old, new := hunkTexts("--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n\\ No newline at end of file\n")
	if old != "a\nb\nc\n" || new != "a\nB\nc\n" {
		t.Errorf("old %q new %q", old, new)
	}
}

func TestCut(t *testing.T) {
	t.Parallel()
	if got := cut(strings.Repeat("é", 10), 7); got != "ééé…" || cut("abcdef", 3) != "abc…" {
		t.Errorf("%q", got)
	}
	if got := cut("short", 10); got != "short" {
		t.Errorf("%q", got)
	}
}
