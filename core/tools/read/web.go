package read

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/net/html/charset"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
)

// URL read limits: what the model sees of one page (the whole text goes
// to an artifact), and how much of a failed response's body is kept.
const (
	urlMaxLines     = 300
	urlMaxBytes     = tool.DefaultMaxBytes
	failedBodyBytes = 4 << 10
)

// URLDetails are the details of a web read.
type URLDetails struct {
	Kind        string   `json:"kind"`                 // "url"
	URL         string   `json:"url"`                  // URL asked for
	FinalURL    string   `json:"finalUrl"`             // URL answered, after redirects
	ContentType string   `json:"contentType"`          // Content-Type of the answer
	Method      string   `json:"method"`               // how the text was made: html, text, json, image, document, raw, raw-html, failed, binary
	Notes       []string `json:"notes,omitempty"`      // what the reader should know about the text
	ArtifactID  string   `json:"artifactId,omitempty"` // artifact holding the whole text
}

// isWebURL reports whether target is an http(s) URL or a bare "www." host.
func isWebURL(target string) bool {
	l := strings.ToLower(target)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "www.")
}

// splitURLSelector splits a URL from a trailing selector. Only :raw, :N,
// :A-B and :A+C are recognised (no "L" prefix), and a number right after
// the host is its port: "http://host:8080" has no selector, while
// "http://host:8080:20" and "http://host/page:20" read from line 20.
func splitURLSelector(target string) (string, Selector, error) {
	return splitSuffixes(target, func(u string, i int) bool {
		return strings.Contains(u[i+1:], "L") || isPortColon(u, i)
	})
}

// isPortColon reports whether the ':' at i of u separates the host from
// its port: it lies in the authority, which has no other port colon.
func isPortColon(u string, i int) bool {
	start := 0
	if j := strings.Index(u, "://"); j >= 0 {
		start = j + 3
	}
	if i < start {
		return false
	}
	auth := u[start:i]
	if strings.ContainsAny(auth, "/?#") {
		return false
	}
	if k := strings.LastIndexByte(auth, ']'); k >= 0 { // [v6]:port
		auth = auth[k+1:]
	}
	return !strings.Contains(auth, ":")
}

// normalizeURL checks a web URL and adds https:// to a bare www. host.
func normalizeURL(raw string) (string, error) {
	if strings.HasPrefix(strings.ToLower(raw), "www.") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", tool.Errorf("Invalid URL %s: %v", raw, unwrapURLError(err))
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Host == "" {
		return "", tool.Errorf("Invalid URL %s: it names no host", raw)
	}
	return u.String(), nil
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// webPage is a fetched URL rendered as text.
type webPage struct {
	URLDetails
	body  string         // the rendered text
	image *preparedImage // set for an image read
}

// text returns the page as the model sees it: the header, then the body.
func (p *webPage) text() string {
	notes := "none"
	if len(p.Notes) > 0 {
		notes = strings.Join(p.Notes, "; ")
	}
	return "URL: " + p.FinalURL + "\nContent-Type: " + p.ContentType + "\nMethod: " + p.Method +
		"\nNotes: " + notes + "\n\n---\n\n" + strings.TrimRight(p.body, "\n")
}

// fetchLimits are the tool's fetch caps with the session's fetch.* timeouts.
func (t *Tool) fetchLimits() fetchLimits {
	l := t.caps.web
	f := t.env.Settings.Fetch
	if f.Connect > 0 {
		l.Connect = f.Connect
	}
	if f.FirstByte > 0 {
		l.FirstByte = f.FirstByte
	}
	if f.Total > 0 {
		l.Total = f.Total
	}
	return l
}

// readWeb reads an http(s) URL. A plain read fetches it and shows the
// first urlMaxLines lines / urlMaxBytes of the rendered text, saving the
// whole text as an artifact when it is longer; a read with a line
// selector pages the text of the last read of the same URL (fetching it
// first when there is none).
func (t *Tool) readWeb(ctx context.Context, target string) (*tool.Result, error) {
	if !t.env.Settings.Fetch.Enabled {
		return nil, tool.Errorf("Cannot read %s: reading web URLs is turned off (setting fetch.enabled); turn it on or fetch the page another way.", target)
	}
	raw, sel, err := splitURLSelector(target)
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	u, err := normalizeURL(raw)
	if err != nil {
		return nil, err
	}
	cache := t.pages
	d := &Details{Source: u}
	if sel.HasLines() {
		text, e := "", cache.get(u, sel.Raw)
		if e != nil {
			text, err = cache.text(t.env.Artifacts, e)
		}
		if e == nil || err != nil {
			p, err := t.loadPage(ctx, u, sel.Raw)
			if err != nil {
				return nil, err
			}
			text = p.text()
			e = cache.put(t.env.Artifacts, u, sel.Raw, &p.URLDetails, text, true)
		}
		info := e.info
		d.URLDetails = &info
		out, _, err := t.render(strings.NewReader(text), sel, u, t.env.DisplayMode(sel.Raw, true), d)
		if err != nil {
			return nil, err
		}
		return tool.TextResult(out, d), nil
	}

	p, err := t.loadPage(ctx, u, sel.Raw)
	if err != nil {
		return nil, err
	}
	text := p.text()
	shown, cut := cutLongLines(text)
	tr := tool.TruncateHead(shown, tool.Limits{MaxLines: urlMaxLines, MaxBytes: urlMaxBytes})
	e := cache.put(t.env.Artifacts, u, sel.Raw, &p.URLDetails, text, tr.Truncated)
	info := e.info
	d.URLDetails = &info
	out := tr.Content
	win := &Window{StartLine: 1, EndLine: tr.OutputLines, TotalLines: tr.TotalLines}
	if tr.Truncated {
		win.TruncatedBy = tr.TruncatedBy
		win.NextOffset = tr.OutputLines + 1
		limit := strconv.Itoa(urlMaxLines) + "-line limit"
		if tr.TruncatedBy == "bytes" {
			limit = tool.FormatSize(urlMaxBytes) + " limit"
		}
		out += fmt.Sprintf("\n\n[Showing lines 1-%d of %d (%s). Use :%d to continue.", tr.OutputLines, tr.TotalLines, limit, win.NextOffset)
		if info.ArtifactID != "" {
			out += " " + tool.FullOutputNotice(info.ArtifactID)
		}
		out += "]"
	}
	for _, n := range cut {
		if n <= win.EndLine {
			win.CutLines = append(win.CutLines, n)
			out += "\n[Line " + strconv.Itoa(n) + " is too long to show whole; it was cut to " + strconv.Itoa(tool.DefaultMaxColumn) + " characters.]"
		}
	}
	d.Truncation = win
	res := tool.TextResult(out, d)
	if p.image != nil {
		if img := p.image.content(); img != nil {
			res.Content = append(res.Content, img)
		}
	}
	return res, nil
}

// loadPage fetches u and renders the answer. raw keeps HTML as it came
// and skips conversions of text bodies.
func (t *Tool) loadPage(ctx context.Context, u string, raw bool) (*webPage, error) {
	f, err := fetch(ctx, u, t.fetchLimits())
	if err != nil {
		return nil, tool.Errorf("%s", err.Error())
	}
	p := &webPage{URLDetails: URLDetails{Kind: "url", URL: u, FinalURL: f.final, ContentType: f.contentType}}
	if p.ContentType == "" {
		p.ContentType = http.DetectContentType(f.body)
	}
	if f.final != u {
		p.Notes = append(p.Notes, "redirected from "+u)
	}
	if f.cut {
		p.Notes = append(p.Notes, "the body was larger than "+tool.FormatSize(t.caps.web.TextBytes)+"; only that much was read")
	}
	if f.short > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("the connection closed %d bytes short of the announced length; the text may be incomplete", f.short))
	}
	kind, ext := classify(f)
	if f.ok() && f.cut && (kind == "image" || kind == "document") {
		// Untyped bodies are read with the text cap; an image or document
		// cut there is of no use.
		return nil, tool.Errorf("Cannot read %s: the %s is larger than %s, the most that is read without a Content-Type", u, kind, tool.FormatSize(t.caps.web.TextBytes))
	}
	if !f.ok() {
		p.Method = "failed"
		p.Notes = append([]string{httpStatusNote(f)}, p.Notes...)
		body := f.body
		if len(body) > failedBodyBytes*4 {
			body = body[:failedBodyBytes*4]
		}
		text := ""
		switch kind {
		case "html":
			if doc, err := decodeHTML(body, f.contentType); err == nil {
				text, _ = renderHTML(doc, f.final)
			}
		case "text", "json":
			text = decodeText(body, f.contentType)
		}
		if len(text) > failedBodyBytes {
			text = strings.ToValidUTF8(text[:failedBodyBytes], "") + "\n[…]"
		}
		if strings.TrimSpace(text) == "" {
			text = "(no readable body)"
		}
		p.body = text
		return p, nil
	}
	switch kind {
	case "image":
		img, err := prepareImage(f.body, u, urlImageMaxBytes, true, t.env.Settings.ImagesAutoResize)
		if err != nil {
			return nil, tool.Errorf("%s", err.Error())
		}
		p.Method, p.image = "image", img
		p.body = img.note(u, urlImageMaxBytes)
	case "unsupported-image":
		return nil, tool.Errorf("Cannot read %s: %s images are not supported; read takes PNG, JPEG, GIF and WebP", u, p.ContentType)
	case "document":
		p.Method = "document"
		text, err := t.convertDocument(ctx, bytes.NewReader(f.body), int64(len(f.body)), ext, "")
		if err != nil {
			text = "[Cannot read " + ext + " file: " + err.Error() + "]"
		}
		p.body = text
	case "json":
		p.Method = "json"
		if raw {
			p.Method = "raw"
		}
		text := decodeText(f.body, "")
		var b bytes.Buffer
		if !raw && json.Indent(&b, []byte(text), "", "  ") == nil {
			text = b.String()
		}
		p.body = text
	case "html":
		if raw {
			p.Method = "raw-html"
			p.body = decodeText(f.body, f.contentType)
			break
		}
		doc, err := decodeHTML(f.body, f.contentType)
		if err != nil {
			return nil, tool.Errorf("Cannot read %s: the HTML could not be parsed (%v)", u, err)
		}
		md, err := renderHTML(doc, f.final)
		if err != nil {
			return nil, tool.Errorf("Cannot read %s: the HTML could not be converted (%v)", u, err)
		}
		p.Method, p.body = "html", md
	case "text":
		p.Method = "text"
		if raw {
			p.Method = "raw"
		}
		p.body = decodeText(f.body, f.contentType)
	default:
		p.Method = "binary"
		p.body = "[The body is binary (" + p.ContentType + ", " + tool.FormatSize(int64(len(f.body))) + ") and is not shown.]"
	}
	if strings.TrimSpace(p.body) == "" {
		p.body = "(empty body)"
	}
	return p, nil
}

// classify decides how a response is rendered: "image",
// "unsupported-image", "document" (with its extension), "json", "html",
// "text" or "binary". Magic bytes win over the declared type.
func classify(f *fetched) (kind, ext string) {
	mt := f.mediaType
	head := f.body[:min(len(f.body), 512)]
	if sniffImage(head) != "" {
		return "image", ""
	}
	if bytes.HasPrefix(head, []byte("%PDF-")) {
		return "document", ".pdf"
	}
	if e := documentMedia(mt); e != "" {
		return "document", e
	}
	if e := documentExt(urlExt(f.final)); e != "" && (mt == "" || mt == "application/octet-stream" || mt == "application/zip") {
		return "document", e
	}
	switch {
	case strings.HasPrefix(mt, "image/") && mt != "image/svg+xml":
		return "unsupported-image", ""
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return "json", ""
	case mt == "text/html" || mt == "application/xhtml+xml":
		return "html", ""
	case mt == "":
		sniffed, _, _ := strings.Cut(http.DetectContentType(head), ";")
		switch sniffed {
		case "text/html":
			return "html", ""
		case "text/plain", "text/xml":
			return "text", ""
		}
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+xml"), strings.HasSuffix(mt, "/xml"),
		mt == "application/javascript", mt == "application/x-ndjson", mt == "application/x-yaml", mt == "application/yaml", mt == "application/toml":
		return "text", ""
	}
	if utf8.Valid(head) && bytes.IndexByte(head, 0) < 0 {
		return "text", ""
	}
	return "binary", ""
}

// decodeText converts a text body to UTF-8 from the charset contentType
// names (for HTML also a <meta> declaration); bytes that are not UTF-8 and
// declare nothing are read as Windows-1252.
func decodeText(body []byte, contentType string) string {
	if contentType == "" && utf8.Valid(body) {
		return string(bytes.TrimPrefix(body, []byte("\uFEFF")))
	}
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return strings.ToValidUTF8(string(body), "\uFFFD")
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(r); err != nil {
		return strings.ToValidUTF8(string(body), "\uFFFD")
	}
	return strings.ToValidUTF8(strings.TrimPrefix(b.String(), "\uFEFF"), "\uFFFD")
}

// Pages keeps the text of a session's recent web reads for paging with
// line selectors: by artifact id when the text was saved, in memory
// otherwise (bounded by urlCacheEntries and urlCacheBytes). The session's
// services own it, so paging goes on across the read tools the session
// builds. The zero value is empty.
type Pages struct {
	mu      sync.Mutex
	entries []*urlEntry // oldest first
}

type urlEntry struct {
	keys []string   // requested and final URL, with the raw flag
	info URLDetails // header fields (ArtifactID set when saved)
	text string     // the text when it was not saved
}

const (
	urlCacheEntries = 16
	urlCacheBytes   = 32 << 20
)

func cacheKey(u string, raw bool) string {
	if raw {
		return "raw " + u
	}
	return u
}

// get returns the newest entry for u in the given mode.
func (c *Pages) get(u string, raw bool) *urlEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := cacheKey(u, raw)
	for i := len(c.entries) - 1; i >= 0; i-- {
		for _, ek := range c.entries[i].keys {
			if ek == k {
				return c.entries[i]
			}
		}
	}
	return nil
}

// text returns an entry's text, from its artifact when it was saved.
func (c *Pages) text(store *artifact.Store, e *urlEntry) (string, error) {
	if e.info.ArtifactID == "" {
		return e.text, nil
	}
	if store == nil {
		return "", artifact.ErrNoDir
	}
	return store.Read(e.info.ArtifactID)
}

// put records a read of u. With save (and a store) the text is saved as a
// new artifact and the entry refers to it.
func (c *Pages) put(store *artifact.Store, u string, raw bool, info *URLDetails, text string, save bool) *urlEntry {
	e := &urlEntry{keys: []string{cacheKey(u, raw)}, info: *info}
	if info.FinalURL != u {
		e.keys = append(e.keys, cacheKey(info.FinalURL, raw))
	}
	if save && store != nil {
		if id, err := store.Save("read", text); err == nil {
			e.info.ArtifactID = id
		}
	}
	if e.info.ArtifactID == "" {
		e.text = text
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = append(c.entries, e)
	size := 0
	for i := len(c.entries) - 1; i >= 0; i-- {
		size += len(c.entries[i].text)
		if len(c.entries)-i > urlCacheEntries || size > urlCacheBytes && i < len(c.entries)-1 {
			c.entries = c.entries[i+1:]
			break
		}
	}
	return e
}
