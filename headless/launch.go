package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// StartTimeout bounds how long a started browser may take to print its
// DevTools address.
const StartTimeout = 30 * time.Second

// AttachTimeout bounds the wait for an existing endpoint's /json/version.
const AttachTimeout = 5 * time.Second

// LaunchOptions say how to start a browser.
type LaunchOptions struct {
	Exec     string   // the executable (Find)
	Headless bool     // browser.headless: no window
	Width    int      // initial window width in CSS pixels
	Height   int      // initial window height
	Args     []string // extra flags, after gopi's own
}

// Browser is one connected browser: started by Launch (owned: Close ends
// its process group) or attached by Attach (Close only disconnects).
type Browser struct {
	rod      *rod.Browser
	ws       *watchedWS      // the DevTools connection
	cmd      *exec.Cmd       // nil when attached
	tree     *childproc.Tree // a launched browser and every process it started
	exited   chan struct{}   // closed when a launched browser's process ended
	dir      string          // the launched browser's profile directory
	endpoint string          // http://host:port of the DevTools endpoint
	desc     string          // what the tool reports: "headless Chromium", "CDP http://…"
	pid      int             // a reused app's process (Spawn found it running), ended by Kill
	front    sync.Mutex      // held while a tab is brought to the front and captured
}

var devtoolsLine = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// Launch starts the browser of o with remote debugging on a free loopback
// port and connects to it. The process lives until Close (not ctx, which
// only bounds the start); it runs in its own process group with gopi's
// mark, so the childproc guard ends it when gopi dies.
func Launch(ctx context.Context, o LaunchOptions) (*Browser, error) {
	if o.Exec == "" {
		return nil, errors.New(MissingHint)
	}
	dir, err := childproc.MkdirTemp("chromium")
	if err != nil {
		return nil, fmt.Errorf("browser profile directory: %w", err)
	}
	args := []string{
		"--no-sandbox", "--disable-setuid-sandbox", "--disable-blink-features=AutomationControlled",
		fmt.Sprintf("--window-size=%d,%d", o.Width, o.Height),
		"--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--user-data-dir=" + dir,
		"--no-first-run", "--no-default-browser-check", "--disable-dev-shm-usage", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--password-store=basic", "--use-mock-keychain", "--disable-breakpad", "--disable-crash-reporter",
	}
	if o.Headless {
		args = append(args, "--headless=new", "--hide-scrollbars", "--mute-audio")
	}
	args = append(append(args, o.Args...), "about:blank")
	tree := childproc.NewTree()
	cmd := exec.Command(o.Exec, args...)
	tree.Prepare(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s: %w", o.Exec, err)
	}
	tree.Started(cmd)
	b := &Browser{cmd: cmd, tree: tree, exited: make(chan struct{}), dir: dir, desc: "headless Chromium"}
	if !o.Headless {
		b.desc = "Chromium"
	}
	wsURL := make(chan string, 1)
	go b.readStderr(stderr, wsURL) // ends when the process closes its stderr
	go func() { _ = cmd.Wait(); close(b.exited) }()

	startCtx, stop := context.WithTimeout(ctx, StartTimeout)
	defer stop()
	select {
	case u := <-wsURL:
		if err := b.connect(startCtx, u); err != nil {
			b.Close()
			return nil, fmt.Errorf("connect to %s: %w", o.Exec, err)
		}
	case <-b.exited:
		b.Close()
		return nil, fmt.Errorf("%s exited before it was ready; run it by hand with --headless to see why", o.Exec)
	case <-startCtx.Done():
		b.Close()
		return nil, fmt.Errorf("%s did not start within %s: %w", o.Exec, StartTimeout, startCtx.Err())
	}
	// Downloads are refused: a page cannot write files on the machine.
	_ = proto.BrowserSetDownloadBehavior{Behavior: proto.BrowserSetDownloadBehaviorBehaviorDeny}.Call(b.rod)
	return b, nil
}

// readStderr sends the DevTools address once it is printed, then drains.
func (b *Browser) readStderr(r io.Reader, wsURL chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sent := false
	for sc.Scan() {
		if m := devtoolsLine.FindStringSubmatch(sc.Text()); m != nil && !sent {
			wsURL <- m[1]
			sent = true
		}
	}
	_, _ = io.Copy(io.Discard, r)
}

// attachHint says how to get a browser to attach to.
const attachHint = "start the browser with remote debugging on, e.g. chromium --remote-debugging-port=9222, and give that address as app.cdp_url (or leave app out to use gopi's own headless Chromium)"

// Attach connects to the running browser whose DevTools HTTP endpoint is
// cdpURL (http://host:port): its /json/version names the websocket.
func Attach(ctx context.Context, cdpURL string) (*Browser, error) {
	cdpURL = strings.TrimRight(cdpURL, "/")
	ctx, cancel := context.WithTimeout(ctx, AttachTimeout)
	defer cancel()
	ws := cdpURL
	if !strings.HasPrefix(cdpURL, "ws://") && !strings.HasPrefix(cdpURL, "wss://") {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cdpURL+"/json/version", nil)
		if err != nil {
			return nil, fmt.Errorf("bad CDP endpoint %q: %w", cdpURL, err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("timed out waiting for CDP endpoint %s (%s): %s", cdpURL, AttachTimeout, attachHint)
			}
			return nil, fmt.Errorf("nothing answers at CDP endpoint %s (%v): %s", cdpURL, errors.Unwrap(err), attachHint)
		}
		defer resp.Body.Close()
		var v struct {
			WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
		}
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&v); err != nil || v.WebSocketDebuggerURL == "" {
			return nil, fmt.Errorf("failed to attach to %s: /json/version names no webSocketDebuggerUrl", cdpURL)
		}
		ws = v.WebSocketDebuggerURL
	}
	b := &Browser{desc: "CDP " + cdpURL}
	if err := b.connect(ctx, ws); err != nil {
		return nil, fmt.Errorf("connected to %s but the CDP connection failed: %w", cdpURL, err)
	}
	return b, nil
}

// connect opens the DevTools websocket at wsURL; Close closes it.
func (b *Browser) connect(ctx context.Context, wsURL string) error {
	raw := &cdp.WebSocket{}
	if err := raw.Connect(ctx, wsURL, nil); err != nil {
		return err
	}
	ws := newWatchedWS(raw)
	// NoDefaultDevice: rod would otherwise emulate a laptop (a fixed
	// user agent and viewport) on every page, attached apps' pages included.
	r := rod.New().Client(cdp.New().Start(ws)).NoDefaultDevice()
	// Connect's calls carry no deadline: a browser that accepts the
	// websocket but never answers is cut off by closing it when ctx ends.
	done := make(chan error, 1)
	go func() { done <- r.Connect() }()
	select {
	case err := <-done:
		if err != nil {
			_ = ws.Close()
			return err
		}
	case <-ctx.Done():
		_ = ws.Close()
		<-done
		return fmt.Errorf("the browser did not answer on its DevTools connection: %w", ctx.Err())
	}
	b.rod, b.ws = r, ws
	if u, err := url.Parse(wsURL); err == nil {
		b.endpoint = "http://" + u.Host
	}
	return nil
}

// Describe names the browser for the tool's output.
func (b *Browser) Describe() string { return b.desc }

// Endpoint is the DevTools HTTP endpoint (http://127.0.0.1:port), which
// another client can attach to.
func (b *Browser) Endpoint() string { return b.endpoint }

// Owned reports whether Close ends the browser's process (Launch).
func (b *Browser) Owned() bool { return b.cmd != nil }

// Live returns the pids of the launched browser's processes still alive.
func (b *Browser) Live() []int {
	if b.tree == nil {
		return nil
	}
	return b.tree.Live()
}

// Pid is the launched browser's process id (0 when attached).
func (b *Browser) Pid() int {
	if b.cmd == nil || b.cmd.Process == nil {
		return 0
	}
	return b.cmd.Process.Pid
}

// Exited reports whether the browser is gone: a launched browser's
// process has ended (a crash, a kill), or its DevTools connection has
// closed. A browser that is alive but slow to answer (stopped, busy with
// a huge page) is not gone: callers wait for it within their own bound.
func (b *Browser) Exited() bool {
	if b.cmd != nil {
		select {
		case <-b.exited:
			return true
		default:
		}
	}
	if b.ws == nil {
		return true
	}
	select {
	case <-b.ws.closed:
		return true
	default:
		return false
	}
}

// Kill ends the browser's processes: a launched or spawned one's whole
// process group (as Close does), or a reused app's process (SIGTERM, then
// SIGKILL after a grace period), after disconnecting.
func (b *Browser) Kill() {
	b.Close()
	if b.cmd == nil && b.pid != 0 {
		endPids(context.Background(), map[int][]string{b.pid: nil})
	}
}

// Close ends a launched browser and every process it started (they are
// gone when Close returns) and removes its profile, or disconnects from
// an attached one.
func (b *Browser) Close() {
	if b.ws != nil {
		_ = b.ws.Close()
	}
	if b.cmd == nil {
		return
	}
	b.tree.End()
	<-b.exited
	_ = os.RemoveAll(b.dir)
}
