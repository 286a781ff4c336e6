package read

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// fetchLimits bound one web read. Every field is required; the defaults
// are defaultFetchLimits, tests shrink them.
type fetchLimits struct {
	Connect    time.Duration // TCP connect and TLS handshake
	FirstByte  time.Duration // request written → response headers
	Total      time.Duration // the whole exchange, body included
	Redirects  int           // redirects followed before giving up
	TextBytes  int64         // body bytes kept of text, HTML, JSON (more is cut)
	BinaryByte int64         // body bytes allowed for images and documents (more is refused)
}

// defaultFetchLimits are the limits of a web read.
var defaultFetchLimits = fetchLimits{
	Connect:    10 * time.Second,
	FirstByte:  20 * time.Second,
	Total:      60 * time.Second,
	Redirects:  10,
	TextBytes:  8 << 20,
	BinaryByte: maxImageBytes,
}

// userAgent names the agent to web servers.
const userAgent = "Mozilla/5.0 (compatible; gopi-read/1.0)"

// fetched is one HTTP response with its body read (within the limits).
type fetched struct {
	requested   string      // URL asked for
	final       string      // URL answered, after redirects
	status      int         // HTTP status code
	statusText  string      // e.g. "404 Not Found"
	header      http.Header // response headers
	mediaType   string      // Content-Type without parameters, lower case ("" when absent)
	contentType string      // Content-Type as sent
	body        []byte      // the body, decompressed, at most the cap
	cut         bool        // the body went past the cap and was cut
	short       int64       // bytes the server announced but never sent (0: none missing)
}

// ok reports a 2xx status.
func (f *fetched) ok() bool { return f.status >= 200 && f.status < 300 }

// fetchError is a web read that got no usable answer.
type fetchError struct {
	url string
	msg string
	err error
}

func (e *fetchError) Error() string { return "Cannot read " + e.url + ": " + e.msg }
func (e *fetchError) Unwrap() error { return e.err }

// redirectError is returned by the redirect policy.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// fetch GETs rawURL within lim. Transport failures, timeouts and redirect
// trouble are errors; any HTTP status is a result.
func fetch(parent context.Context, rawURL string, lim fetchLimits) (*fetched, error) {
	ctx, cancel := context.WithTimeout(parent, lim.Total)
	defer cancel()
	dialer := &net.Dialer{Timeout: lim.Connect, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                  http.ProxyFromEnvironment,
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    lim.Connect,
		ResponseHeaderTimeout:  lim.FirstByte,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 1 << 20,
		ForceAttemptHTTP2:      true,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, CheckRedirect: redirectPolicy(lim.Redirects)}

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, &fetchError{url: rawURL, msg: "invalid URL: " + err.Error(), err: err}
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.8")
	resp, err := client.Do(req)
	if err != nil {
		return nil, describeFetchError(ctx, parent, rawURL, req.URL.Host, lim, err)
	}
	defer resp.Body.Close()

	f := &fetched{
		requested:   rawURL,
		final:       resp.Request.URL.String(),
		status:      resp.StatusCode,
		statusText:  resp.Status,
		header:      resp.Header,
		contentType: resp.Header.Get("Content-Type"),
	}
	if mt, _, err := mime.ParseMediaType(f.contentType); err == nil {
		f.mediaType = strings.ToLower(mt)
	}
	limit := lim.TextBytes
	if isBinaryMedia(f.mediaType, f.final) {
		limit = lim.BinaryByte
		if resp.ContentLength > limit {
			return nil, &fetchError{url: rawURL, msg: fmt.Sprintf("the %s is %s; at most %s is read", mediaNoun(f.mediaType), tool.FormatSize(resp.ContentLength), tool.FormatSize(limit))}
		}
	}
	// bytes.Buffer grows with what arrives, so a lying Content-Length
	// cannot size an allocation.
	var bb bytes.Buffer
	_, rerr := bb.ReadFrom(io.LimitReader(resp.Body, limit+1))
	if rerr != nil {
		if !errors.Is(rerr, io.ErrUnexpectedEOF) || resp.ContentLength <= 0 || resp.Uncompressed {
			return nil, describeFetchError(ctx, parent, rawURL, req.URL.Host, lim, rerr)
		}
		f.short = resp.ContentLength - int64(bb.Len())
	}
	buf := bb.Bytes()
	if int64(len(buf)) > limit {
		if limit == lim.BinaryByte && isBinaryMedia(f.mediaType, f.final) {
			return nil, &fetchError{url: rawURL, msg: fmt.Sprintf("the %s is larger than %s, the most that is read", mediaNoun(f.mediaType), tool.FormatSize(limit))}
		}
		buf = buf[:limit]
		f.cut = true
	}
	f.body = buf
	return f, nil
}

// redirectPolicy follows at most max redirects, to http(s) URLs only, and
// stops at the first URL seen twice.
func redirectPolicy(max int) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		chain := make([]string, 0, len(via)+1)
		for _, v := range via {
			chain = append(chain, v.URL.String())
		}
		chain = append(chain, req.URL.String())
		for _, v := range via {
			if v.URL.String() == req.URL.String() {
				return &redirectError{"redirect loop: " + strings.Join(chain, " → ")}
			}
		}
		if len(via) > max {
			return &redirectError{fmt.Sprintf("gave up after %d redirects (last to %s)", max, req.URL)}
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return &redirectError{"redirected to " + req.URL.String() + ", which is not an http(s) URL"}
		}
		return nil
	}
}

// describeFetchError turns a transport error into a message saying which
// limit or failure ended the read.
func describeFetchError(ctx, parent context.Context, rawURL, host string, lim fetchLimits, err error) error {
	fe := &fetchError{url: rawURL, err: err}
	var re *redirectError
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var corrupt flate.CorruptInputError
	inner := err // the cause, without url.Error's "Get <url>:" prefix
	var ue *url.Error
	if errors.As(err, &ue) {
		inner = ue.Err
	}
	switch {
	case errors.As(err, &re):
		fe.msg = re.msg
	case parent.Err() != nil:
		fe.msg = "the read was cancelled"
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		fe.msg = "no complete answer within " + lim.Total.String() + " (the time limit of a web read)"
	case strings.Contains(inner.Error(), "timeout awaiting response headers"):
		fe.msg = host + " accepted the connection but sent no response within " + lim.FirstByte.String()
	case errors.As(err, &dnsErr):
		fe.msg = "cannot resolve host " + dnsErr.Name
	case errors.Is(err, syscall.ECONNREFUSED):
		fe.msg = host + " refused the connection"
	case errors.As(err, &opErr) && opErr.Op == "dial" && opErr.Timeout():
		fe.msg = "could not connect to " + host + " within " + lim.Connect.String()
	case strings.Contains(inner.Error(), "TLS handshake timeout"):
		fe.msg = "the TLS handshake with " + host + " took longer than " + lim.Connect.String()
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &corrupt):
		fe.msg = "the compressed body is corrupt (" + err.Error() + ")"
	default:
		fe.msg = inner.Error()
	}
	return fe
}

// isBinaryMedia reports whether a response is read as a whole file (an
// image or a document) rather than as text.
func isBinaryMedia(mediaType, rawURL string) bool {
	switch {
	case strings.HasPrefix(mediaType, "image/") && imageMIME(mediaType):
		return true
	case documentMedia(mediaType) != "":
		return true
	case mediaType == "" || mediaType == "application/octet-stream":
		return documentExt(urlExt(rawURL)) != "" || imageExt(urlExt(rawURL))
	}
	return false
}

// mediaNoun names what a binary response holds, for messages.
func mediaNoun(mediaType string) string {
	if strings.HasPrefix(mediaType, "image/") {
		return "image"
	}
	return "document"
}

// urlExt returns the lower-case extension of a URL's path (".pdf").
func urlExt(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	p := u.Path
	i := strings.LastIndexByte(p, '.')
	if i < 0 || strings.ContainsRune(p[i:], '/') {
		return ""
	}
	return strings.ToLower(p[i:])
}

// httpStatusNote describes a non-2xx answer.
func httpStatusNote(f *fetched) string {
	s := f.statusText
	if s == "" {
		s = strconv.Itoa(f.status)
	}
	return "the server answered HTTP " + s
}
