package hashline

import (
	"regexp"
	"strings"
	"sync"
)

// displayPrefix matches one display prefix a read shows before a line in
// hashline mode ("41th|", with the ">>" of a match or the "+" of an added
// line before it, as search and edit previews show them).
var displayPrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:>>>|>>)?\s*(?:[+*]\s*)?\d+[a-z]{2}[:` + regexp.QuoteMeta(BodySeparator) + `]`)
})

// truncationNotice matches the line a truncated read ends with ("[Showing
// lines 1-200 of 900. Use :201 ...]").
var truncationNotice = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[(?:Showing lines \d+-\d+ of \d+|\d+ more lines? in (?:file|\S+))\b.*\bUse :L?\d+`)
})

// StripDisplayPrefixes removes the anchors a read showed from text a
// model copied from it: when every non-empty line (truncation notices
// aside) starts with a display prefix, the prefixes (repeated ones too)
// and the notices go and stripped is true; otherwise text comes back as
// it is. A text where only some lines look prefixed is left alone, since
// those may be the content.
func StripDisplayPrefixes(text string) (out string, stripped bool) {
	lines := strings.Split(text, "\n")
	nonEmpty, prefixed := 0, 0
	for _, l := range lines {
		if l == "" || truncationNotice().MatchString(l) {
			continue
		}
		nonEmpty++
		if displayPrefix().MatchString(l) {
			prefixed++
		}
	}
	if nonEmpty == 0 || prefixed != nonEmpty {
		return text, false
	}
	kept := lines[:0]
	for _, l := range lines {
		if truncationNotice().MatchString(l) {
			continue
		}
		for {
			s := displayPrefix().ReplaceAllLiteralString(l, "")
			if s == l {
				break
			}
			l = s
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "\n"), true
}
