package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// An extension's key binding runs its handler when pressed (the key is
// named as the extensions package normalises it), /hotkeys lists it, and
// the interactive mode's own keys keep their meaning.
func TestExtensionShortcut(t *testing.T) {
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
