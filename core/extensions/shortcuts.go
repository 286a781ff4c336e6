package extensions

import (
	"context"
	"strings"

	"github.com/dop251/goja"
)

// Shortcut is a key binding an extension registered
// (pi.registerShortcut(key, { description, handler })).
type Shortcut struct {
	Key         string // normalised: modifiers in the order ctrl, alt, shift, then the key ("ctrl+shift+x")
	Description string
	Extension   string // the extension's path
	rt          *Runtime
	x           *ext
	fn          goja.Callable
}

// Run calls the shortcut's handler with the handler context.
func (s *Shortcut) Run(ctx context.Context) error {
	_, err := s.rt.vm.call(ctx, s.rt.opts.Budget, s.fn,
		func(rt *goja.Runtime) goja.Value { return s.rt.ctxObject(rt, s.x) })
	return err
}

// reservedShortcuts are the keys the interactive mode keeps for itself.
var reservedShortcuts = map[string]bool{
	"ctrl+c": true, "ctrl+d": true, "ctrl+z": true, "ctrl+k": true, "ctrl+p": true, "ctrl+l": true,
	"ctrl+o": true, "ctrl+t": true, "ctrl+g": true, "shift+tab": true, "ctrl+shift+p": true,
	"alt+enter": true, "escape": true, "enter": true,
}

// ReservedShortcut reports whether key (normalised) belongs to gopi.
func ReservedShortcut(key string) bool { return reservedShortcuts[key] }

// NormalizeShortcut writes a key as "ctrl+alt+shift+key", lower case,
// whatever the order and spelling of its modifiers ("Shift+Ctrl+P",
// "control-p", "esc").
func NormalizeShortcut(key string) string {
	parts := strings.FieldsFunc(strings.ToLower(strings.TrimSpace(key)), func(r rune) bool { return r == '+' || r == '-' })
	var ctrl, alt, shift bool
	rest := ""
	for _, p := range parts {
		switch p {
		case "ctrl", "control":
			ctrl = true
		case "alt", "meta", "option", "opt":
			alt = true
		case "shift":
			shift = true
		case "esc":
			rest = "escape"
		case "return":
			rest = "enter"
		default:
			rest = p
		}
	}
	var b strings.Builder
	if ctrl {
		b.WriteString("ctrl+")
	}
	if alt {
		b.WriteString("alt+")
	}
	if shift {
		b.WriteString("shift+")
	}
	b.WriteString(rest)
	return b.String()
}
