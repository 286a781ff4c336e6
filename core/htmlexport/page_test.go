package htmlexport

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

func TestPageEntriesAndPath(t *testing.T) {
	f := newFixture(t)
	m := must[*session.Manager](t)(session.OpenSnapshot(f.path, session.Options{}))
	page, doc := render(t, m, Options{SessionFile: f.path, SystemPrompt: "You are gopi.", Tools: []ToolInfo{{"read", "Reads a file."}}})
	if !utf8.ValidString(page) {
		t.Error("the page is not valid UTF-8")
	}
	active := map[string]bool{}
	for _, e := range m.Path(f.leaf) {
		active[e.ID] = true
	}
	entries := m.Entries()
	sections := find(doc, func(n *html.Node) bool { return n.Data == "section" && hasClass(n, "entry") })
	if len(sections) != len(entries) {
		t.Fatalf("%d sections for %d entries", len(sections), len(entries))
	}
	for i, e := range entries {
		s := sections[i]
		if id, _ := attr(s, "id"); id != "e-"+e.ID {
			t.Errorf("section %d has id %q, want e-%s (file order)", i, id, e.ID)
		}
		if p, _ := attr(s, "data-parent"); p != e.ParentID {
			t.Errorf("section %s: data-parent %q, want %q", e.ID, p, e.ParentID)
		}
		if _, hidden := attr(s, "hidden"); hidden == active[e.ID] {
			t.Errorf("section %s (%s): hidden=%v, on the active path=%v", e.ID, e.Type, hidden, active[e.ID])
		}
	}
	if s := byID(doc, "e-"+f.oldBranchTip); s == nil {
		t.Fatal("the abandoned branch is missing")
	} else if _, hidden := attr(s, "hidden"); !hidden {
		t.Error("the abandoned branch is shown")
	}

	// The tree: one row per entry, active rows marked, the default filter applied.
	rows := find(doc, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "row") })
	if len(rows) != len(entries) {
		t.Fatalf("%d tree rows for %d entries", len(rows), len(entries))
	}
	shown := map[string]bool{}
	for _, r := range session.FilterRows(m.TreeRows(session.TreeQuery{Filter: session.FilterAll}), session.TreeQuery{}) {
		shown[r.Entry.ID] = true
	}
	for _, r := range rows {
		id, _ := attr(r, "data-id")
		if hasClass(r, "active") != active[id] {
			t.Errorf("row %s: active class %v, on the path %v", id, hasClass(r, "active"), active[id])
		}
		if _, hidden := attr(r, "hidden"); hidden == shown[id] {
			t.Errorf("row %s: hidden=%v, kept by the default filter=%v", id, hidden, shown[id])
		}
		// Every filter hides an assistant message holding only tool calls
		// (its results stand for it), as the tree selector does.
		fl, _ := attr(r, "data-f")
		a, _ := m.Entry(id).Message.(*ai.AssistantMessage)
		if callsOnly := a != nil && a.Text() == "" && id != f.leaf; strings.Contains(fl, "a") == callsOnly {
			t.Errorf("row %s: filters %q", id, fl)
		}
		if a := find(r, tag("a")); len(a) != 1 {
			t.Errorf("row %s has %d links", id, len(a))
		} else if href, _ := attr(a[0], "href"); href != "#e-"+id {
			t.Errorf("row %s links to %q", id, href)
		}
	}
	leafRows := find(doc, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "leaf") })
	if len(leafRows) != 1 {
		t.Errorf("%d leaf rows", len(leafRows))
	} else if id, _ := attr(leafRows[0], "data-id"); id != f.leaf {
		t.Errorf("leaf row %s, want %s", id, f.leaf)
	}
	if row := byID(doc, "e-"+f.labelled); row == nil || !strings.Contains(textOf(row), "the fix") {
		t.Error("the label is not shown on its entry")
	}
}

func TestPageContent(t *testing.T) {
	f := newFixture(t)
	m := must[*session.Manager](t)(session.OpenSnapshot(f.path, session.Options{}))
	page, doc := render(t, m, Options{SessionFile: f.path, SystemPrompt: "You are gopi.", Tools: []ToolInfo{{"read", "Reads a file."}}})

	// Nothing is fetched: a CSP forbids it, and no element names a remote resource.
	metas := find(doc, func(n *html.Node) bool {
		v, _ := attr(n, "http-equiv")
		return n.Data == "meta" && v == "Content-Security-Policy"
	})
	if len(metas) != 1 {
		t.Fatal("no Content-Security-Policy")
	} else if c, _ := attr(metas[0], "content"); !strings.Contains(c, "default-src 'none'") {
		t.Errorf("CSP %q", c)
	}
	for _, n := range find(doc, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			if (a.Key == "src" || (a.Key == "href" && n.Data == "link")) && !strings.HasPrefix(a.Val, "data:") {
				t.Errorf("<%s %s=%q> loads from outside the page", n.Data, a.Key, a.Val)
			}
		}
	}
	if n := len(find(doc, tag("script"))); n != 1 {
		t.Errorf("%d script elements: text from the session became a script", n)
	}
	if n := len(find(doc, tag("link"))); n != 0 {
		t.Errorf("%d link elements", n)
	}

	// Text that looks like markup stays text.
	last := byID(doc, "e-"+f.answer)
	if txt := textOf(last); !strings.Contains(txt, "<script>alert('x')</script>") || !strings.Contains(txt, "Vec<T>") {
		t.Errorf("the assistant's HTML was not kept as text: %q", txt)
	}
	if len(find(last, tag("table"))) != 1 {
		t.Error("the Markdown table was not rendered")
	}
	if a := find(last, func(n *html.Node) bool { return n.Data == "a" && hasClass(n, "md-image") }); len(a) != 1 {
		t.Error("a remote Markdown image is not a link")
	}
	first := byID(doc, "e-"+f.firstUser)
	if txt := textOf(first); !strings.Contains(txt, "<b>now</b>") {
		t.Errorf("the user's text was not kept as typed: %q", txt)
	}

	// Thinking, arguments, summaries and the system prompt start collapsed.
	for _, class := range []string{"thinking", "args", "summary", "context", "custom-hidden"} {
		ds := find(doc, func(n *html.Node) bool { return n.Data == "details" && hasClass(n, class) })
		if len(ds) == 0 {
			t.Errorf("no collapsed %s", class)
		}
		for _, d := range ds {
			if _, open := attr(d, "open"); open {
				t.Errorf("%s starts open", class)
			}
		}
	}
	if !strings.Contains(textOf(byID(doc, "e-"+f.compaction)), "45,210 tokens") {
		t.Error("the compaction marker does not say how much was summarised")
	}
	if !strings.Contains(textOf(byID(doc, "e-"+f.summID)), "The user wanted the file read first.") {
		t.Error("the branch summary is missing")
	}

	// The edit's diff, the failed command, the images, the user's shell run.
	edit := byID(doc, "e-"+f.editResult)
	adds := find(edit, func(n *html.Node) bool { return n.Data == "span" && hasClass(n, "add") })
	dels := find(edit, func(n *html.Node) bool { return n.Data == "span" && hasClass(n, "del") })
	if len(adds) != 1 || len(dels) != 1 || !strings.Contains(textOf(adds[0]), `"hi!"`) {
		t.Errorf("diff: %d added and %d removed lines", len(adds), len(dels))
	}
	if !strings.Contains(textOf(edit), "[edit: greet.go]") {
		t.Errorf("the result does not name its call: %q", textOf(edit))
	}
	errs := find(doc, func(n *html.Node) bool { return n.Data == "section" && hasClass(n, "error") })
	if len(errs) != 1 || !strings.Contains(textOf(errs[0]), "Command exited with code 1") {
		t.Errorf("%d error results", len(errs))
	}
	imgs := find(doc, tag("img"))
	if len(imgs) != 2 {
		t.Errorf("%d images, want the user's and the tool's", len(imgs))
	}
	for _, img := range imgs {
		if src, _ := attr(img, "src"); src != "data:image/png;base64,"+pngData {
			t.Errorf("image src %.60q", src)
		}
	}
	if !strings.Contains(page, "$ git diff --stat") || !strings.Contains(page, "$ go test ./...") {
		t.Error("shell commands are missing")
	}
	if !strings.Contains(page, "\uFFFD bad bytes") {
		t.Error("invalid UTF-8 was not replaced")
	}
	if !strings.Contains(page, "You are gopi.") || !strings.Contains(page, "Reads a file.") {
		t.Error("the system prompt or the tools are missing")
	}
	for _, want := range []string{"anthropic/claude-sonnet-4-5", "$0.0", "1,500 in"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
}

func TestPageOfEmptySession(t *testing.T) {
	m := session.InMemory("/w")
	page, doc := render(t, m, Options{})
	if len(find(doc, func(n *html.Node) bool { return n.Data == "section" })) != 0 || !strings.Contains(page, "no entries") {
		t.Error("an empty session should say it has no entries")
	}
}

func TestMarkdownKeepsHTMLAsText(t *testing.T) {
	for in, want := range map[string]string{
		"a <b>bold</b> c":                   "a &lt;b&gt;bold&lt;/b&gt; c",
		"<div onclick=\"x()\">\nhi\n</div>": "&lt;div onclick=&quot;x()&quot;&gt;",
		"[x](javascript:alert(1))":          `<a href="">x</a>`,
		"![y](javascript:alert(1))":         `<a class="md-image" href="">[image: y]</a>`,
		"`<T>`":                             "<code>&lt;T&gt;</code>",
	} {
		var b bytes.Buffer
		if err := markdown().Convert([]byte(in), &b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%q rendered as %q, want it to contain %q", in, b.String(), want)
		}
	}
}

func TestEscape(t *testing.T) {
	var b bytes.Buffer
	o := out{w: bufioWriter(&b)}
	o.text("a<b>&\"'\x00é\xff")
	o.w.Flush()
	if got, want := b.String(), "a&lt;b&gt;&amp;&#34;&#39;é\uFFFD"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
