package vim

import (
	"fmt"
	"strings"
)

// Key is one key of a sequence: a character, or a special key named by
// Special (Esc, CR, BS, Tab, C-d, C-u, C-r, C-w, C-o).
type Key struct {
	Char    rune   // the character when Special is ""
	Special string // the special key's canonical name
	Seq     int    // index of the kbd entry the key came from
	Offset  int    // index of the key's first character in that entry
}

// Is reports whether k is the character c.
func (k Key) Is(c rune) bool { return k.Special == "" && k.Char == c }

// Display is the key as the user wrote it, for messages.
func (k Key) Display() string {
	switch {
	case k.Special != "":
		return "<" + k.Special + ">"
	case k.Char == ' ':
		return "<Space>"
	}
	return string(k.Char)
}

// specialKeys maps the names accepted between < and > (case-insensitive)
// to the canonical name.
var specialKeys = map[string]string{
	"esc": "Esc", "escape": "Esc", "cr": "CR", "enter": "CR", "return": "CR",
	"bs": "BS", "backspace": "BS", "tab": "Tab",
	"c-d": "C-d", "c-u": "C-u", "c-r": "C-r", "c-w": "C-w", "c-o": "C-o",
}

// Error is a failure tied to the key that caused it (Key is nil when none).
type Error struct {
	Msg string
	Key *Key
}

func (e *Error) Error() string { return e.Msg }

// errAt is an Error at key k.
func errAt(k Key, format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Key: &k}
}

// ParseKeys splits kbd entries into keys: "<Esc>"-style names, the escapes
// \r \e \n \t, a literal ESC byte, and every other character as itself.
func ParseKeys(entries []string) ([]Key, error) {
	var keys []Key
	for seq, entry := range entries {
		rs := []rune(entry)
		for i := 0; i < len(rs); i++ {
			c := rs[i]
			k := Key{Char: c, Seq: seq, Offset: i}
			switch {
			case c == 0x1b:
				k = Key{Special: "Esc", Seq: seq, Offset: i}
			case c == '\\' && i+1 < len(rs) && strings.ContainsRune("rent", rs[i+1]):
				switch rs[i+1] {
				case 'r':
					k = Key{Special: "CR", Seq: seq, Offset: i}
				case 'e':
					k = Key{Special: "Esc", Seq: seq, Offset: i}
				case 'n':
					k = Key{Char: '\n', Seq: seq, Offset: i}
				case 't':
					k = Key{Special: "Tab", Seq: seq, Offset: i}
				}
				i++
			case c == '<':
				end := -1
				for j := i + 1; j < len(rs); j++ {
					if rs[j] == '>' {
						end = j
						break
					}
				}
				if end < 0 {
					return nil, errAt(k, "Unterminated special key in sequence %d", seq+1)
				}
				raw := string(rs[i+1 : end])
				name, ok := specialKeys[strings.ToLower(strings.TrimSpace(raw))]
				if !ok {
					return nil, errAt(k, "Unknown special key <%s> in sequence %d", raw, seq+1)
				}
				k = Key{Special: name, Seq: seq, Offset: i}
				i = end
			}
			keys = append(keys, k)
		}
	}
	return keys, nil
}
