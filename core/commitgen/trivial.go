package commitgen

import (
	"regexp"
	"strings"
	"sync"
)

// importLine matches an added or removed line that only imports or
// re-exports (JavaScript, TypeScript, Python, CommonJS).
var importLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]\s*(import\s|from\s|export\s.*from|require\(|module\.exports)`)
})

// Trivial recognizes a diff that needs no model to describe: one that
// only adds or removes blank lines ("style: formatted code"), or only
// changes import lines besides blank ones ("style: reorganized
// imports"). ok is false for any other diff, and for an empty one.
func Trivial(diff string) (m Message, ok bool) {
	var changed []string
	for _, line := range strings.Split(diff, "\n") {
		if strings.HasPrefix(line, "+++") || strings.HasPrefix(line, "---") {
			continue
		}
		if strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-") {
			changed = append(changed, line)
		}
	}
	if len(changed) == 0 {
		return Message{}, false
	}
	blank := func(l string) bool { return strings.TrimSpace(l[1:]) == "" }
	onlyBlank, onlyImports := true, true
	for _, l := range changed {
		if !blank(l) {
			onlyBlank = false
			if !importLine().MatchString(l) {
				onlyImports = false
			}
		}
	}
	switch {
	case onlyBlank:
		return Message{Type: "style", Summary: "formatted code"}, true
	case onlyImports:
		return Message{Type: "style", Summary: "reorganized imports"}, true
	}
	return Message{}, false
}
