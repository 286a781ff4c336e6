package plugins

import (
	"fmt"
	"regexp"
	"strings"
)

// Limits of names and ids (Claude Code's registry rules).
const (
	MaxNameLen = 64  // a plugin or marketplace name
	MaxIDLen   = 128 // name@marketplace
)

// nameRE is the shape of a name: lowercase letters, digits, '-' and '.',
// starting and ending with a letter or digit.
var nameRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$`)

// ValidName reports whether s may name a plugin or a marketplace.
func ValidName(s string) bool {
	return len(s) > 0 && len(s) <= MaxNameLen && nameRE.MatchString(s)
}

// nameError says what is wrong with a name that ValidName refuses.
func nameError(kind, s string) error {
	if len(s) > MaxNameLen {
		return fmt.Errorf("invalid %s name %q: at most %d characters", kind, s, MaxNameLen)
	}
	return fmt.Errorf("invalid %s name %q: use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit", kind, s)
}

// ID is a plugin's identity: its name and the marketplace it came from.
type ID struct {
	Name        string
	Marketplace string
}

// String returns name@marketplace.
func (id ID) String() string { return id.Name + "@" + id.Marketplace }

// ParseID splits "name@marketplace" (at the last '@') and checks both
// parts and the length.
func ParseID(s string) (ID, error) {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return ID{}, fmt.Errorf("invalid plugin id %q: write it as name@marketplace", s)
	}
	id := ID{Name: s[:at], Marketplace: s[at+1:]}
	if !ValidName(id.Name) {
		return ID{}, nameError("plugin", id.Name)
	}
	if !ValidName(id.Marketplace) {
		return ID{}, nameError("marketplace", id.Marketplace)
	}
	if len(s) > MaxIDLen {
		return ID{}, fmt.Errorf("plugin id %q is longer than %d characters", s, MaxIDLen)
	}
	return id, nil
}
