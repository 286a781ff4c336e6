package share

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGH writes a gh script that logs its arguments and behaves as
// script says.
func fakeGH(t *testing.T, script string) (gh, log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "calls")
	gh = filepath.Join(dir, "gh")
	body := "#!/bin/sh\necho \"$*\" >> " + log + "\n" + script + "\n"
	if err := os.WriteFile(gh, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return gh, log
}

func TestGistCreatesSecretGist(t *testing.T) {
	gh, log := fakeGH(t, `case "$1" in auth) exit 0;; gist) echo "- Creating gist"; echo "https://gist.github.com/someone/abc123";; esac`)
	res, err := Gist(context.Background(), "/tmp/session.html", Options{GH: gh})
	if err != nil {
		t.Fatal(err)
	}
	if res.GistURL != "https://gist.github.com/someone/abc123" || res.PreviewURL != "https://gistpreview.github.io/?abc123" {
		t.Errorf("result %+v", res)
	}
	calls, _ := os.ReadFile(log)
	if want := "auth status\ngist create --public=false /tmp/session.html\n"; string(calls) != want {
		t.Errorf("gh was called with:\n%s\nwant:\n%s", calls, want)
	}
}

func TestGistErrors(t *testing.T) {
	if _, err := Gist(context.Background(), "f.html", Options{GH: filepath.Join(t.TempDir(), "no-gh")}); !errors.Is(err, ErrNoGH) {
		t.Errorf("missing gh: %v", err)
	}
	gh, _ := fakeGH(t, `exit 1`)
	if _, err := Gist(context.Background(), "f.html", Options{GH: gh}); !errors.Is(err, ErrNotLoggedIn) {
		t.Errorf("gh not logged in: %v", err)
	}
	gh, _ = fakeGH(t, `case "$1" in auth) exit 0;; gist) echo "HTTP 422: quota" >&2; exit 1;; esac`)
	_, err := Gist(context.Background(), "f.html", Options{GH: gh})
	if err == nil || !strings.Contains(err.Error(), "Failed to create gist: HTTP 422: quota") {
		t.Errorf("failed create: %v", err)
	}
}

// gh is found on the PATH of the environment given (the terminal's).
func TestGistFindsGHOnEnvPath(t *testing.T) {
	gh, _ := fakeGH(t, `case "$1" in auth) exit 0;; gist) echo "https://gist.github.com/x/id9";; esac`)
	res, err := Gist(context.Background(), "f.html", Options{Env: []string{"PATH=/nonexistent:" + filepath.Dir(gh)}})
	if err != nil || res.PreviewURL != "https://gistpreview.github.io/?id9" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := Gist(context.Background(), "f.html", Options{Env: []string{"PATH=/nonexistent"}}); !errors.Is(err, ErrNoGH) {
		t.Errorf("gh off the PATH: %v", err)
	}
}
