package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// An extension's key binding runs its handler when pressed (the key is
// named as the extensions package normalises it), /hotkeys lists it, and
// the interactive mode's own keys keep their meaning.
func TestExtensionShortcut(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ran := make(chan struct{}, 1)
	r.m.opts.Shortcuts = []ExtShortcut{{Key: "ctrl+alt+shift+y", Description: "yank the plan", Run: func(context.Context) error {
		ran <- struct{}{}
		return nil
	}}}
	r.update(tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl | tea.ModAlt | tea.ModShift})
	r.until("the shortcut's handler", func() bool {
		select {
		case <-ran:
			return true
		default:
			return false
		}
	})
	r.typeAndSend("/hotkeys")
	r.until("the hotkeys list", func() bool { return strings.Contains(r.transcript(), "yank the plan (extension)") })
}

// An extension's renderer draws its custom messages under their label; a
// failing renderer falls back to the message's own text.
func TestExtensionMessageRenderer(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	r.m.r.custom = customRenderer(context.Background(), Options{Renderers: map[string]func(context.Context, *message.Custom, bool, int) (string, error){
		"status": func(_ context.Context, m *message.Custom, _ bool, width int) (string, error) {
			return "drawn by the extension: " + m.Content.Text(), nil
		},
		"broken": func(context.Context, *message.Custom, bool, int) (string, error) { return "", errors.New("no") },
	}})
	for _, typ := range []string{"status", "broken"} {
		if err := r.s.SendCustomMessage(context.Background(), &message.Custom{CustomType: typ, Content: message.PlainText("body of " + typ), Display: true},
			agentsession.CustomOptions{DeliverAs: agentsession.DeliverNextTurn}); err != nil {
			t.Fatal(err)
		}
	}
	r.typeAndSend("go") // the messages join this prompt
	r.until("both messages", func() bool {
		out := r.transcript()
		return strings.Contains(out, "drawn by the extension: body of status") && strings.Contains(out, "body of broken")
	})
}

// A tool with extension renderers gets its card drawn by them; a renderer
// that fails leaves the usual card.
func TestToolCardRenderers(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80, tools: map[string]ToolRenderer{
		"deploy": {
			Call: func(_ context.Context, args json.RawMessage, _ int) (string, error) { return "deploy to the moon", nil },
			Result: func(_ context.Context, res, _ json.RawMessage, _, _ bool, _ int) (string, error) {
				return "shipped\nall green", nil
			},
		},
		"broken": {Result: func(context.Context, json.RawMessage, json.RawMessage, bool, bool, int) (string, error) {
			return "", errors.New("no")
		}},
	}}
	card := r.card(&ai.ToolCall{Name: "deploy", Arguments: map[string]any{"env": "x"}}, []ai.Content{&ai.TextContent{Text: "raw output"}}, nil, false)
	if !strings.Contains(card, "deploy to the moon") || !strings.Contains(card, "  shipped\n  all green") || strings.Contains(card, "raw output") {
		t.Errorf("drawn card:\n%s", card)
	}
	card = r.card(&ai.ToolCall{Name: "broken"}, []ai.Content{&ai.TextContent{Text: "raw output"}}, nil, false)
	if !strings.Contains(card, "raw output") {
		t.Errorf("fallback card:\n%s", card)
	}
}
