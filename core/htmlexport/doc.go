// Package htmlexport renders a session as one self-contained HTML page:
// `gopi --export FILE [OUT.html]`, RPC export_html and the SDK's
// Session.ExportHTML all end here.
//
// The page needs nothing from the network (a Content-Security-Policy
// forbids it; images are data: URLs) and works without JavaScript. Every
// entry of the session is in it, in file order, as a <section> carrying
// its id and its parent's id; the sections on the path from the root to
// the session's leaf are shown and the others carry the hidden attribute.
// The sidebar draws the session tree as the tree selector does
// (session.FlattenTree) with the five filters and a search box; a small
// script shows the branch through any entry picked there or named in the
// address (#e-<id>). Assistant text is rendered as Markdown (goldmark,
// raw HTML shown as text, remote images as links); thinking, tool
// arguments, compaction and branch summaries start collapsed; edits show
// their diff. Colours follow prefers-color-scheme.
//
// Rendering streams into an io.Writer: page.go lays out the page,
// entries.go draws one entry, markdown.go and text.go produce escaped
// text, assets/ holds the style sheet and the script.
package htmlexport
