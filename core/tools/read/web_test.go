package read

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
)

// webEnv returns a session with an artifacts directory and plain output.
func webEnv(t *testing.T) *tool.Env {
	t.Helper()
	dir := t.TempDir()
	env := tool.NewEnv(dir)
	env.Artifacts = artifact.NewStore(filepath.Join(dir, ".artifacts"))
	return env
}

// limitedWebEnv is webEnv with its fetch limits changed by change.
func limitedWebEnv(t *testing.T, change func(*fetchLimits)) *tool.Env {
	env := webEnv(t)
	withCaps(env, func(c *caps) { change(&c.web) })
	return env
}

func details(t *testing.T, res *tool.Result) *Details {
	t.Helper()
	d, ok := res.Details.(*Details)
	if !ok || d.URLDetails == nil {
		t.Fatalf("no URL details: %#v", res.Details)
	}
	return d
}

func TestWebHTMLToMarkdown(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><title>Release notes</title>
<style>body{color:red}</style><script>var secret = "tracking";</script></head>
<body><nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
<main><h1>Release notes</h1><p>Version <strong>2.0</strong> adds <a href="/docs/read">reading</a>.</p>
<ul><li>fast</li><li>small</li></ul>
<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></main>
<footer>© someone</footer></body></html>`)
	}))
	defer srv.Close()
	env := webEnv(t)
	res := call(t, env, srv.URL+"/notes")
	text := res.FirstText()
	wantHead := "URL: " + srv.URL + "/notes\nContent-Type: text/html; charset=utf-8\nMethod: html\nNotes: none\n\n---\n\n# Release notes\n"
	if !strings.HasPrefix(text, wantHead) {
		t.Fatalf("header:\n%s", text)
	}
	for _, want := range []string{"Version **2.0** adds [reading](" + srv.URL + "/docs/read).", "- fast", "| a | b |"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	for _, bad := range []string{"tracking", "color:red", "About", "someone"} {
		if strings.Contains(text, bad) {
			t.Errorf("kept %q:\n%s", bad, text)
		}
	}
	d := details(t, res)
	if d.Kind != "url" || d.Method != "html" || d.FinalURL != srv.URL+"/notes" || d.Truncation.TotalLines == 0 {
		t.Fatalf("details %+v %+v", d.URLDetails, d.Truncation)
	}

	raw := call(t, env, srv.URL+"/notes:raw").FirstText()
	if !strings.Contains(raw, "Method: raw-html") || !strings.Contains(raw, `var secret = "tracking";`) {
		t.Fatalf("raw:\n%s", raw)
	}
}

func TestWebCharsets(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/latin1":
			w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
			w.Write([]byte("<html><body><p>caf\xe9 cr\xe8me</p></body></html>"))
		case "/meta":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><meta charset="windows-1251"></head><body><p>` + "\xcf\xf0\xe8\xe2\xe5\xf2" + `</p></body></html>`))
		case "/text":
			w.Header().Set("Content-Type", "text/plain; charset=windows-1252")
			w.Write([]byte("na\xefve \x93quotes\x94\n"))
		}
	}))
	defer srv.Close()
	env := webEnv(t)
	for path, want := range map[string]string{"/latin1": "café crème", "/meta": "Привет", "/text": "naïve “quotes”"} {
		if got := call(t, env, srv.URL+path).FirstText(); !strings.Contains(got, want) {
			t.Errorf("%s: want %q in\n%s", path, want, got)
		}
	}
}

func TestWebTextJSONMarkdown(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a.json":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"name":"gopi","tags":["a","b"]}`)
		case "/README.md":
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			io.WriteString(w, "# Title\n\n<b>kept as is</b>\n")
		case "/plain":
			io.WriteString(w, "just text\nsecond line\n") // no Content-Type: sniffed
		}
	}))
	defer srv.Close()
	env := webEnv(t)
	got := call(t, env, srv.URL+"/a.json").FirstText()
	if !strings.Contains(got, "Method: json\n") || !strings.Contains(got, "{\n  \"name\": \"gopi\",\n  \"tags\": [\n    \"a\",") {
		t.Errorf("json:\n%s", got)
	}
	got = call(t, env, srv.URL+"/README.md").FirstText()
	if !strings.Contains(got, "Method: text\n") || !strings.HasSuffix(got, "---\n\n# Title\n\n<b>kept as is</b>") {
		t.Errorf("markdown:\n%q", got)
	}
	got = call(t, env, srv.URL+"/plain").FirstText()
	if !strings.Contains(got, "Content-Type: text/plain; charset=utf-8\nMethod: text") || !strings.HasSuffix(got, "just text\nsecond line") {
		t.Errorf("plain:\n%q", got)
	}
}

func TestWebFailedStatus(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "<html><body><h1>Nothing here</h1><p>Try the index.</p></body></html>")
	}))
	defer srv.Close()
	res := call(t, webEnv(t), srv.URL+"/missing")
	if res.IsError {
		t.Fatalf("a non-OK answer is a result, got error %q", res.FirstText())
	}
	text := res.FirstText()
	if !strings.Contains(text, "Method: failed\nNotes: the server answered HTTP 404 Not Found\n") || !strings.Contains(text, "Try the index.") {
		t.Fatalf("failed read:\n%s", text)
	}
	if d := details(t, res); d.Method != "failed" || d.Notes[0] != "the server answered HTTP 404 Not Found" {
		t.Fatalf("details %+v", d.URLDetails)
	}
}

func TestWebTruncationAndPaging(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		for i := 1; i <= 1000; i++ {
			fmt.Fprintf(w, "row %d\n", i)
		}
	}))
	defer srv.Close()
	env := webEnv(t)
	res := call(t, env, srv.URL+"/rows")
	text := res.FirstText()
	lines := strings.Split(text, "\n")
	// 7 header lines + 293 rows are shown: 300 lines in all.
	if lines[299] != "row 293" || !strings.HasSuffix(text, "\n\n[Showing lines 1-300 of 1007 (300-line limit). Use :301 to continue. Full: artifact://0]") {
		t.Fatalf("truncated read:\n%s", text[len(text)-200:])
	}
	d := details(t, res)
	if d.ArtifactID != "0" || d.Truncation.NextOffset != 301 || d.Truncation.TruncatedBy != "lines" {
		t.Fatalf("details %+v %+v", d.URLDetails, d.Truncation)
	}
	full, err := env.Artifacts.Read("0")
	if err != nil || !strings.HasSuffix(full, "row 999\nrow 1000") || !strings.HasPrefix(full, "URL: ") {
		t.Fatalf("artifact: %v %q", err, full[max(0, len(full)-30):])
	}
	// A range pages the saved text without fetching again.
	page := call(t, env, srv.URL+"/rows:301-302").FirstText()
	if !strings.Contains(page, "row 294\nrow 295") || hits.Load() != 1 {
		t.Fatalf("page (hits %d):\n%s", hits.Load(), page)
	}
	// A range on a URL never read fetches it first.
	page = call(t, env, srv.URL+"/other:8+1").FirstText()
	if !strings.Contains(page, "\nrow 1\nrow 2\n") || hits.Load() != 2 {
		t.Fatalf("fresh page (hits %d):\n%s", hits.Load(), page)
	}
}

func TestWebByteLimitWithoutArtifacts(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for i := range 200 {
			fmt.Fprintf(w, "%03d %s\n", i, strings.Repeat("x", 400))
		}
	}))
	defer srv.Close()
	env := tool.NewEnv(t.TempDir()) // no artifact store: the text stays in memory
	res := call(t, env, srv.URL)
	text := res.FirstText()
	if len(text) > urlMaxBytes+200 || !strings.Contains(text, "(50.0KB limit). Use :") || strings.Contains(text, "artifact://") {
		t.Fatalf("byte-limited read (%d bytes): %s", len(text), text[len(text)-150:])
	}
	next := details(t, res).Truncation.NextOffset
	if got := call(t, env, fmt.Sprintf("%s:%d+1", srv.URL, next)).FirstText(); !strings.Contains(got, fmt.Sprintf("%03d x", next-8)) {
		t.Fatalf("paging from memory: %.100q", got)
	}
}

// silentServer accepts connections and never answers them (they stay
// open until the test ends).
func silentServer(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // held open, never written to
		}
	}()
	return ln
}

func TestWebNeverAnswers(t *testing.T) {
	t.Parallel()
	ln := silentServer(t)
	env := limitedWebEnv(t, func(l *fetchLimits) { l.FirstByte = 300 * time.Millisecond })
	start := time.Now()
	res := call(t, env, "http://"+ln.Addr().String()+"/")
	if !res.IsError || res.FirstText() != "Cannot read http://"+ln.Addr().String()+"/: "+ln.Addr().String()+" accepted the connection but sent no response within 300ms" {
		t.Fatalf("got %q", res.FirstText())
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
}

// The fetch.* settings bound a web read (here the wait for headers) and
// fetch.enabled=false refuses URLs with the setting's name.
func TestWebSettings(t *testing.T) {
	t.Parallel()
	ln := silentServer(t)
	env := webEnv(t)
	env.Settings.Fetch.FirstByte = 250 * time.Millisecond
	res := call(t, env, "http://"+ln.Addr().String()+"/")
	if !res.IsError || !strings.HasSuffix(res.FirstText(), "sent no response within 250ms") {
		t.Fatalf("got %q", res.FirstText())
	}
	env.Settings.Fetch.Enabled = false
	res = call(t, env, "http://"+ln.Addr().String()+"/")
	if !res.IsError || !strings.Contains(res.FirstText(), "fetch.enabled") {
		t.Fatalf("got %q", res.FirstText())
	}
}

func TestWebTotalTimeout(t *testing.T) {
	t.Parallel()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for {
			io.WriteString(w, "drip\n")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}))
	defer srv.Close()
	defer close(done)
	res := call(t, limitedWebEnv(t, func(l *fetchLimits) { l.Total = 500 * time.Millisecond }), srv.URL)
	if !res.IsError || !strings.HasSuffix(res.FirstText(), ": no complete answer within 500ms (the time limit of a web read)") {
		t.Fatalf("got %q", res.FirstText())
	}
}

func TestWebConnectionRefused(t *testing.T) {
	t.Parallel()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	res := call(t, webEnv(t), "http://"+addr+"/x")
	if !res.IsError || res.FirstText() != "Cannot read http://"+addr+"/x: "+addr+" refused the connection" {
		t.Fatalf("got %q", res.FirstText())
	}
}

func TestWebRedirects(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", http.StatusFound) })
	mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/a", http.StatusMovedPermanently) })
	mux.HandleFunc("/chain/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/chain/"), "%d", &n)
		http.Redirect(w, r, fmt.Sprintf("/chain/%d", n+1), http.StatusFound)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/final", http.StatusFound) })
	mux.HandleFunc("/final", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "arrived\n") })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	env := webEnv(t)

	res := call(t, env, srv.URL+"/a")
	want := "Cannot read " + srv.URL + "/a: redirect loop: " + srv.URL + "/a → " + srv.URL + "/b → " + srv.URL + "/a"
	if !res.IsError || res.FirstText() != want {
		t.Fatalf("loop: got %q\nwant %q", res.FirstText(), want)
	}
	res = call(t, env, srv.URL+"/chain/0")
	if !res.IsError || !strings.Contains(res.FirstText(), ": gave up after 10 redirects (last to "+srv.URL+"/chain/11)") {
		t.Fatalf("chain: %q", res.FirstText())
	}
	res = call(t, env, srv.URL+"/moved")
	text := res.FirstText()
	if res.IsError || !strings.HasPrefix(text, "URL: "+srv.URL+"/final\n") || !strings.Contains(text, "Notes: redirected from "+srv.URL+"/moved\n") {
		t.Fatalf("redirect: %s", text)
	}
	// The final URL is cached too.
	if got := call(t, env, srv.URL+"/final:8").FirstText(); got != "\narrived" {
		t.Fatalf("final URL page: %q", got)
	}
}

// countingWriter counts what a handler managed to send.
type countingWriter struct {
	w http.ResponseWriter
	n *atomic.Int64
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

func TestWebHugePageIsCut(t *testing.T) {
	t.Parallel()
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		cw := countingWriter{w, &sent}
		io.WriteString(cw, "<html><body>")
		para := []byte("<p>" + strings.Repeat("lorem ipsum ", 80) + "</p>\n")
		for sent.Load() < 50<<20 {
			if _, err := cw.Write(para); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	res := call(t, limitedWebEnv(t, func(l *fetchLimits) { l.TextBytes = 1 << 20 }), srv.URL+"/big")
	text := res.FirstText()
	if res.IsError || !strings.Contains(text, "Notes: the body was larger than 1.0MB; only that much was read\n") {
		t.Fatalf("huge page: %.400s", text)
	}
	if len(text) > urlMaxBytes+300 {
		t.Fatalf("shown %d bytes", len(text))
	}
	if s := sent.Load(); s >= 50<<20 {
		t.Fatalf("the whole page was sent (%d bytes): the read did not stop at the cap", s)
	}
}

func TestWebDefaultCapOnHugePage(t *testing.T) {
	t.Parallel()
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		cw := countingWriter{w, &sent}
		para := []byte("<p>" + strings.Repeat("word ", 200) + "</p>\n")
		for sent.Load() < 50<<20 {
			if _, err := cw.Write(para); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	res := call(t, webEnv(t), srv.URL)
	if res.IsError || !strings.Contains(res.FirstText(), "the body was larger than 8.0MB; only that much was read") {
		t.Fatalf("%.300s", res.FirstText())
	}
	if s := sent.Load(); s >= 50<<20 {
		t.Fatalf("sent %d bytes", s)
	}
}

func TestWebLyingContentLength(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/short": // announces more than it sends, then hangs up
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Length", "1000")
			io.WriteString(w, "only this arrived\n")
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		case "/long": // announces less than it sends: the rest is ignored
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Length", "5")
			conn, buf, _ := w.(http.Hijacker).Hijack()
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello and much more")
			buf.Flush()
			conn.Close()
		case "/huge.png": // announces 50 GB of image
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("Content-Length", "53687091200")
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("\x89PNG\r\n\x1a\n"))
		}
	}))
	defer srv.Close()
	env := webEnv(t)
	res := call(t, env, srv.URL+"/short")
	if res.IsError || !strings.Contains(res.FirstText(), "Notes: the connection closed 982 bytes short of the announced length; the text may be incomplete\n") ||
		!strings.HasSuffix(res.FirstText(), "only this arrived") {
		t.Fatalf("short: %q", res.FirstText())
	}
	res = call(t, env, srv.URL+"/long")
	if res.IsError || !strings.HasSuffix(res.FirstText(), "---\n\nhello") {
		t.Fatalf("long: %q", res.FirstText())
	}
	res = call(t, env, srv.URL+"/huge.png")
	if !res.IsError || res.FirstText() != "Cannot read "+srv.URL+"/huge.png: the image is 50.0GB; at most 20.0MB is read" {
		t.Fatalf("huge image: %q", res.FirstText())
	}
}

// gzipOf compresses n bytes of b's repetition.
func gzipOf(t *testing.T, b byte, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	chunk := bytes.Repeat([]byte{b}, 1<<20)
	for n > 0 {
		k := min(n, len(chunk))
		zw.Write(chunk[:k])
		n -= k
	}
	zw.Close()
	return out.Bytes()
}

func TestWebGzipBomb(t *testing.T) {
	bomb := gzipOf(t, 'a', 256<<20) // 256 MiB inflated, about 250 KiB on the wire
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		switch r.URL.Path {
		case "/text":
			w.Header().Set("Content-Type", "text/plain")
			w.Write(bomb)
		case "/image":
			w.Header().Set("Content-Type", "image/png")
			w.Write(bomb)
		case "/corrupt":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("\x1f\x8b\x08\x00garbage that is not deflate"))
		}
	}))
	defer srv.Close()
	env := limitedWebEnv(t, func(l *fetchLimits) { l.TextBytes = 2 << 20 })
	var before, after runtimeMem
	before.read()
	res := call(t, env, srv.URL+"/text")
	after.read()
	if res.IsError || !strings.Contains(res.FirstText(), "the body was larger than 2.0MB; only that much was read") {
		t.Fatalf("text bomb: %.300q", res.FirstText())
	}
	if grew := after.total - before.total; grew > 128<<20 {
		t.Fatalf("allocated %d MiB reading a gzip bomb", grew>>20)
	}
	res = call(t, env, srv.URL+"/image")
	if !res.IsError || res.FirstText() != "Cannot read "+srv.URL+"/image: the image is larger than 20.0MB, the most that is read" {
		t.Fatalf("image bomb: %q", res.FirstText())
	}
	res = call(t, env, srv.URL+"/corrupt")
	if !res.IsError || !strings.Contains(res.FirstText(), "the compressed body is corrupt") {
		t.Fatalf("corrupt gzip: %q", res.FirstText())
	}
}

func TestWebImage(t *testing.T) {
	t.Parallel()
	img := image.NewNRGBA(image.Rect(0, 0, 2000, 1000))
	for y := range 1000 {
		for x := range 2000 {
			img.Set(x, y, color.NRGBA{uint8(x * 7), uint8(y * 13), uint8((x ^ y) * 3), 255})
		}
	}
	var pngData bytes.Buffer
	png.Encode(&pngData, img)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream") // magic bytes decide
		w.Write(pngData.Bytes())
	}))
	defer srv.Close()
	env := webEnv(t)
	env.Settings.ImagesAutoResize = true
	res := call(t, env, srv.URL+"/pic")
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("image read: %q", res.FirstText())
	}
	text := res.FirstText()
	if !strings.Contains(text, "Method: image\n") || !strings.Contains(text, "image/png, 2000x1000") || !strings.Contains(text, "1568x784") {
		t.Fatalf("image note:\n%s", text)
	}
	ic := res.Content[1].(*tool.ImageContent)
	if n := len(ic.Data) * 3 / 4; n > urlImageMaxBytes {
		t.Fatalf("inline image %d bytes", n)
	}
}

func TestWebDocument(t *testing.T) {
	t.Parallel()
	docx := buildZip(t, map[string]string{"word/document.xml": docxXML(`<w:p><w:r><w:t>Served over HTTP</w:t></w:r></w:p>`)})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
		w.Write(docx)
	}))
	defer srv.Close()
	text := call(t, webEnv(t), srv.URL+"/report.docx").FirstText()
	if !strings.Contains(text, "Method: document\n") || !strings.HasSuffix(text, "---\n\nServed over HTTP") {
		t.Fatalf("document:\n%s", text)
	}
}

func TestSplitURLSelector(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		url string
		sel Selector
	}{
		"https://example.com":             {"https://example.com", Selector{}},
		"http://127.0.0.1:8080":           {"http://127.0.0.1:8080", Selector{}},
		"http://127.0.0.1:8080:20":        {"http://127.0.0.1:8080", Selector{Start: 20}},
		"http://[::1]:8080":               {"http://[::1]:8080", Selector{}},
		"http://[::1]:8080:5-9":           {"http://[::1]:8080", Selector{Start: 5, End: 9}},
		"https://example.com/a:50-60":     {"https://example.com/a", Selector{Start: 50, End: 60}},
		"https://example.com/a:50+2:raw":  {"https://example.com/a", Selector{Start: 50, End: 51, Raw: true}},
		"https://example.com:raw":         {"https://example.com", Selector{Raw: true}},
		"https://example.com:L1-L40":      {"https://example.com:L1-L40", Selector{}},
		"https://example.com/wiki/Help:x": {"https://example.com/wiki/Help:x", Selector{}},
	}
	for in, want := range cases {
		u, sel, err := splitURLSelector(in)
		if err != nil || u != want.url || sel != want.sel {
			t.Errorf("splitURLSelector(%q) = %q %+v %v; want %q %+v", in, u, sel, err, want.url, want.sel)
		}
	}
	res := call(t, webEnv(t), "https://example.com/a:0")
	if !res.IsError || res.FirstText() != "Line selector 0 is invalid; lines are 1-indexed. Use :1." {
		t.Fatalf(":0 on a URL: %q", res.FirstText())
	}
}

func TestWebInvalidURL(t *testing.T) {
	t.Parallel()
	env := webEnv(t)
	for in, want := range map[string]string{
		"http://":          "Invalid URL http://: it names no host",
		"http://bad host/": `Invalid URL http://bad host/: invalid character " " in host name`,
	} {
		if res := call(t, env, in); !res.IsError || res.FirstText() != want {
			t.Errorf("%s: got %q want %q", in, res.FirstText(), want)
		}
	}
	if !isWebURL("www.example.com") || !isWebURL("HTTPS://x") || isWebURL("wwwx.go") {
		t.Fatal("isWebURL")
	}
	if u, err := normalizeURL("www.example.com/a"); err != nil || u != "https://www.example.com/a" {
		t.Fatalf("www: %q %v", u, err)
	}
}

// runtimeMem samples the allocator's running total.
type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() { m.total = totalAlloc() }

func TestWebUntypedImageOverTextCap(t *testing.T) {
	t.Parallel()
	big := encoded(t, "png", noisy(700, 700)) // about 2 MiB of noise
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no type: sniffing only
		w.Write(big)
	}))
	defer srv.Close()
	res := call(t, limitedWebEnv(t, func(l *fetchLimits) { l.TextBytes = 1 << 20 }), srv.URL+"/blob")
	if !res.IsError || res.FirstText() != "Cannot read "+srv.URL+"/blob: the image is larger than 1.0MB, the most that is read without a Content-Type" {
		t.Fatalf("got %q", res.FirstText())
	}
}

func TestWebUnsupportedImageAndBinary(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pic.bmp":
			w.Header().Set("Content-Type", "image/bmp")
			w.Write([]byte("BM\x00\x00\x00\x00"))
		case "/blob":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write([]byte{0, 1, 2, 3, 0xff, 0xfe})
		}
	}))
	defer srv.Close()
	env := webEnv(t)
	res := call(t, env, srv.URL+"/pic.bmp")
	if !res.IsError || res.FirstText() != "Cannot read "+srv.URL+"/pic.bmp: image/bmp images are not supported; read takes PNG, JPEG, GIF and WebP" {
		t.Fatalf("bmp: %q", res.FirstText())
	}
	res = call(t, env, srv.URL+"/blob")
	if res.IsError || !strings.Contains(res.FirstText(), "Method: binary\n") || !strings.HasSuffix(res.FirstText(), "[The body is binary (application/octet-stream, 6B) and is not shown.]") {
		t.Fatalf("binary: %q", res.FirstText())
	}
}
