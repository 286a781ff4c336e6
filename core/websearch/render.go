package websearch

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// snippetMax and queryMax bound the snippets, cited passages and search
// queries in the model's text (in characters).
const (
	snippetMax = 240
	queryMax   = 120
)

// Text is the model-facing text of a response: the answer, then the
// numbered sources with age, URL and snippet, then citations, related
// questions and the queries the provider ran.
func Text(r *Response) string {
	var parts []string
	if r.Answer != "" {
		parts = append(parts, r.Answer)
		if len(r.Sources) > 0 {
			parts = append(parts, "\n## Sources", count("source", len(r.Sources)))
		}
	}
	for i, s := range r.Sources {
		age := formatAge(s.AgeSeconds)
		if age == "" {
			age = s.PublishedDate
		}
		line := fmt.Sprintf("[%d] %s", i+1, s.Title)
		if age != "" {
			line += " (" + age + ")"
		}
		parts = append(parts, line+"\n    "+s.URL)
		if s.Snippet != "" {
			parts = append(parts, "    "+clip(s.Snippet, snippetMax))
		}
	}
	if len(r.Citations) > 0 {
		parts = append(parts, "\n## Citations", count("citation", len(r.Citations)))
		for i, c := range r.Citations {
			title := c.Title
			if title == "" {
				title = c.URL
			}
			parts = append(parts, fmt.Sprintf("[%d] %s\n    %s", i+1, title, c.URL))
			if c.CitedText != "" {
				parts = append(parts, "    "+clip(c.CitedText, snippetMax))
			}
		}
	}
	if len(r.RelatedQuestions) > 0 {
		parts = append(parts, "\n## Related", count("question", len(r.RelatedQuestions)))
		for _, q := range r.RelatedQuestions {
			parts = append(parts, "- "+q)
		}
	}
	if len(r.SearchQueries) > 0 {
		parts = append(parts, fmt.Sprintf("Search queries: %d", len(r.SearchQueries)))
		for _, q := range r.SearchQueries[:min(3, len(r.SearchQueries))] {
			parts = append(parts, "- "+clip(q, queryMax))
		}
	}
	return strings.Join(parts, "\n")
}

func count(noun string, n int) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// clip shortens s to max characters, the last one an ellipsis.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}
