package websearch

import (
	"fmt"
	"io"
	"net/url"
	"strings"
)

// reportLine bounds a line of the human report, in characters.
const reportLine = 110

// Report writes r for a person (gopi search): a header with the provider
// and source count, the query, the answer, the sources (all of them
// expanded, five when compact) and the metadata. failure, when not "",
// replaces the body with the error. Text from the provider is printed
// without its control characters and escape sequences.
func Report(w io.Writer, r *Response, query string, compact bool, failure string) {
	if failure != "" {
		fmt.Fprintf(w, "Error: %s\n", printable(failure))
		return
	}
	fmt.Fprintf(w, "Web Search · %s · %s\n", r.Provider.Label(), count("source", len(r.Sources)))
	if query != "" {
		fmt.Fprintf(w, "\nQuery: %s\n", clip(printable(query), 80))
	}
	fmt.Fprintln(w, "\nAnswer")
	var lines []string
	for _, l := range strings.Split(r.Answer, "\n") {
		if l = strings.TrimSpace(printable(l)); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		fmt.Fprintln(w, "  No answer text returned")
	}
	shown := lines
	if compact && len(shown) > 6 {
		shown = shown[:6]
	}
	for _, l := range shown {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if n := len(lines) - len(shown); n > 0 {
		fmt.Fprintf(w, "  … %s more\n", count("line", n))
	}
	fmt.Fprintln(w, "\nSources")
	if len(r.Sources) == 0 {
		fmt.Fprintln(w, "  No sources returned")
	}
	sources := r.Sources
	if compact && len(sources) > 5 {
		sources = sources[:5]
	}
	for _, s := range sources {
		title, link := printable(s.Title), printable(s.URL)
		if strings.TrimSpace(title) == "" {
			title = link
		}
		var meta []string
		if u, err := url.Parse(s.URL); err == nil && u.Host != "" {
			meta = append(meta, "("+printable(strings.TrimPrefix(u.Hostname(), "www."))+")")
		}
		if a := strings.TrimSpace(printable(s.Author)); a != "" {
			meta = append(meta, clip(a, 40))
		}
		if age := formatAge(s.AgeSeconds); age != "" {
			meta = append(meta, age)
		} else if s.PublishedDate != "" {
			meta = append(meta, printable(s.PublishedDate))
		}
		head := clip(title, reportLine)
		if len(meta) > 0 {
			head += " " + strings.Join(meta, " · ")
		}
		fmt.Fprintf(w, "  %s\n", clip(head, reportLine))
		n := 0
		for _, l := range strings.Split(s.Snippet, "\n") {
			if l = strings.TrimSpace(printable(l)); l != "" && n < 2 {
				fmt.Fprintf(w, "    - %s\n", clip(l, reportLine))
				n++
			}
		}
		if link != "" {
			fmt.Fprintf(w, "    %s\n", clip(link, reportLine))
		}
	}
	if n := len(r.Sources) - len(sources); n > 0 {
		fmt.Fprintf(w, "  … %s more\n", count("source", n))
	}
	fmt.Fprintln(w, "\nMetadata")
	fmt.Fprintf(w, "  Provider: %s\n", r.Provider.Label())
	switch r.AuthMode {
	case "":
	case "api_key":
		fmt.Fprintln(w, "  Auth: API key")
	case "oauth":
		fmt.Fprintln(w, "  Auth: OAuth")
	default:
		fmt.Fprintf(w, "  Auth: %s\n", printable(r.AuthMode))
	}
	if r.Model != "" {
		fmt.Fprintf(w, "  Model: %s\n", printable(r.Model))
	}
	fmt.Fprintf(w, "  Sources: %d\n", len(r.Sources))
	if len(r.Citations) > 0 {
		fmt.Fprintf(w, "  Citations: %d\n", len(r.Citations))
	}
	if u := r.Usage; u != nil {
		var parts []string
		for _, p := range []struct {
			name string
			v    *int
		}{{"in", u.InputTokens}, {"out", u.OutputTokens}, {"total", u.TotalTokens}, {"search", u.SearchRequests}} {
			if p.v != nil {
				parts = append(parts, fmt.Sprintf("%s %d", p.name, *p.v))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "  Usage: %s\n", strings.Join(parts, " · "))
		}
	}
	if r.RequestID != "" {
		fmt.Fprintf(w, "  Request: %s\n", clip(printable(r.RequestID), 36))
	}
	if len(r.SearchQueries) > 0 {
		qs := r.SearchQueries[:min(2, len(r.SearchQueries))]
		clipped := make([]string, len(qs))
		for i, q := range qs {
			clipped[i] = clip(printable(q), 90)
		}
		suffix := ""
		if len(r.SearchQueries) > 2 {
			suffix = "…"
		}
		fmt.Fprintf(w, "  Queries: %s%s\n", strings.Join(clipped, "; "), suffix)
	}
}
