package htmlexport

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/gopi-agent/gopi/core/session"
)

// chromium finds a headless browser. scripts/setup.sh installs Debian's
// chromium; on CI a missing browser fails the test instead of skipping it.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH: scripts/setup.sh installs it (apt-get install chromium)")
	}
	t.Skip("no chromium on PATH (scripts/setup.sh installs it)")
	return ""
}

// runBrowser runs headless chromium on a page with extra flags and
// returns its standard output.
func runBrowser(t *testing.T, bin, url string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir()}, flags...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", flags, err, stderr.Bytes())
	}
	return out
}

// TestBrowserShowsPickedBranch opens the page in a real browser at the
// address of an entry on the abandoned branch: the script must show that
// branch and hide the other, and the page must draw.
func TestBrowserShowsPickedBranch(t *testing.T) {
	bin := chromium(t)
	f := newFixture(t)
	m := must[*session.Manager](t)(session.OpenSnapshot(f.path, session.Options{}))
	page := filepath.Join(t.TempDir(), "page.html")
	if err := WriteFile(page, m, Options{SessionFile: f.path}); err != nil {
		t.Fatal(err)
	}

	dom := runBrowser(t, bin, "file://"+page+"#e-"+f.oldBranchTip, "--dump-dom")
	doc, err := html.Parse(bytes.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	shown := func(id string) bool {
		s := byID(doc, "e-"+id)
		if s == nil {
			t.Fatalf("no section for %s", id)
		}
		_, hidden := attr(s, "hidden")
		return !hidden
	}
	if !shown(f.oldBranchTip) || !shown(f.firstUser) {
		t.Error("the picked branch is not shown")
	}
	if shown(f.summID) || shown(f.answer) {
		t.Error("the other branch is still shown")
	}
	rows := find(doc, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "selected") })
	if len(rows) != 1 {
		t.Fatalf("%d selected rows", len(rows))
	}
	if id, _ := attr(rows[0], "data-id"); id != f.oldBranchTip || !hasClass(rows[0], "active") {
		t.Errorf("selected row %s (active %v), want %s", id, hasClass(rows[0], "active"), f.oldBranchTip)
	}
	if hasClass(find(doc, func(n *html.Node) bool { v, _ := attr(n, "data-id"); return n.Data == "li" && v == f.answer })[0], "active") {
		t.Error("the old leaf's row is still marked active")
	}

	// Without an address the session's own path is shown.
	dom = runBrowser(t, bin, "file://"+page, "--dump-dom")
	doc, err = html.Parse(bytes.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	if shown(f.oldBranchTip) || !shown(f.answer) {
		t.Error("without an address the page should show the path to the leaf")
	}

	// It draws: a screenshot of the requested size that is not blank.
	shot := filepath.Join(t.TempDir(), "page.png")
	runBrowser(t, bin, "file://"+page, "--hide-scrollbars", "--window-size=1280,900", "--screenshot="+shot)
	r, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	img, err := png.Decode(r)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 900 {
		t.Fatalf("screenshot %v", b)
	}
	colours := map[uint32]bool{}
	for y := 0; y < 900; y += 9 {
		for x := 0; x < 1280; x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|b>>8] = true
		}
	}
	if len(colours) < 8 {
		t.Errorf("the screenshot has %d colours: nothing was drawn", len(colours))
	}
	// For a look by hand: HTMLEXPORT_KEEP=DIR keeps the page and the shot.
	if dir := os.Getenv("HTMLEXPORT_KEEP"); dir != "" {
		for _, p := range []string{page, shot} {
			b, err := os.ReadFile(p)
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644)
			}
			if err != nil {
				t.Error(err)
			}
		}
	}
}
