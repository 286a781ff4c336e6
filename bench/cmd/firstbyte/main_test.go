package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// helperEnv makes the test binary act as the measured command: it reads
// the mock's URL from the file the variable names, waits helperDelay, then
// sends model requests as an agent would.
const helperEnv = "FIRSTBYTE_TEST_HELPER"

// helperDelay is how long the helper waits before its first request: the
// measured time cannot be shorter.
const helperDelay = 30 * time.Millisecond

// helperBig is what the helper in mode "big" allocates before its first
// request; big keeps it reachable.
const helperBig = 64 << 20

var big []byte

func TestMain(m *testing.M) {
	if path := os.Getenv(helperEnv); path != "" {
		os.Exit(helper(path, os.Getenv("FIRSTBYTE_TEST_MODE")))
	}
	os.Exit(m.Run())
}

// helper is the child process: a GET that is not a model request, then
// two model requests on one connection (or none in mode "none").
func helper(path, mode string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 3
	}
	url := strings.TrimSpace(string(data))
	if mode == "none" {
		return 0
	}
	if mode == "big" {
		// Touch helperBig bytes before the first request, and keep them.
		big = make([]byte, helperBig)
		for i := range big {
			big[i] = byte(i)
		}
	}
	time.Sleep(helperDelay)
	if resp, err := http.Get(url + "/v1/models"); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	for range 2 {
		body := `{"model":"m","stream":true,"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`
		resp, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			return 4
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !bytes.Contains(out, []byte("message_stop")) {
			return 5
		}
	}
	return 0
}

// measureHelper runs firstbyte on the helper and returns its output.
func measureHelper(t *testing.T, mode string, extra ...string) (stdout, stderr string, code int) {
	t.Helper()
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "url.tmpl")
	dst := filepath.Join(dir, "url.txt")
	if err := os.WriteFile(tmpl, []byte("{{URL}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(helperEnv, dst)
	t.Setenv("FIRSTBYTE_TEST_MODE", mode)
	args := append([]string{"-config", dst + "=" + tmpl}, extra...)
	args = append(args, "--", os.Args[0], "-test.run=^$")
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// TestMeasuresFromStartToFirstModelRequest: every run is reported, the
// first-byte time covers the helper's delay and precedes the exit, and a
// non-model request before it is not taken for it.
func TestMeasuresFromStartToFirstModelRequest(t *testing.T) {
	out, errOut, code := measureHelper(t, "", "-n", "3", "-warmup", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var runs int
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 6 && f[0] == "run":
			runs++
			first, _ := strconv.ParseFloat(f[3], 64)
			exit, _ := strconv.ParseFloat(f[5], 64)
			if first < float64(helperDelay.Milliseconds()) || first > exit {
				t.Errorf("first byte %.3f ms, exit %.3f ms, helper delay %v: %s", first, exit, helperDelay, sc.Text())
			}
		case len(f) == 6 && f[0] == "summary":
		default:
			t.Errorf("unexpected line %q", sc.Text())
		}
	}
	if runs != 3 {
		t.Errorf("%d runs reported, want 3:\n%s", runs, out)
	}
	if !strings.Contains(out, "summary first_byte best ") || !strings.Contains(out, "summary exit best ") {
		t.Errorf("no summary:\n%s", out)
	}
}

// TestReportsUsage: -usage reports the CPU time and peak RSS at the first
// byte and at exit; the helper touches 64 MB before its first request, so
// both peaks are above that, and it uses no less CPU by its exit. (The two
// peaks come from different counters, /proc's VmHWM and the kernel's
// rusage, which may differ by a few pages.)
func TestReportsUsage(t *testing.T) {
	out, errOut, code := measureHelper(t, "big", "-n", "2", "-warmup", "0", "-usage")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	runs := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if f[0] != "run" {
			continue
		}
		runs++
		if len(f) != 14 || f[6] != "cpu_first_ms" || f[8] != "rss_first_mb" || f[10] != "cpu_ms" || f[12] != "maxrss_mb" {
			t.Fatalf("run line %q", line)
		}
		v := func(i int) float64 { x, _ := strconv.ParseFloat(f[i], 64); return x }
		if v(7) <= 0 || v(7) > v(11) || v(9) < helperBig>>20 || v(13) < helperBig>>20 {
			t.Errorf("cpu at first byte %v ms of %v, rss at first byte %v MB of %v: %q", v(7), v(11), v(9), v(13), line)
		}
	}
	for _, s := range []string{"cpu_first", "rss_first", "cpu", "maxrss"} {
		if !strings.Contains(out, "summary "+s+" best ") {
			t.Errorf("no %s summary:\n%s", s, out)
		}
	}
	if runs != 2 {
		t.Errorf("%d runs:\n%s", runs, out)
	}
}

func TestNoModelRequestFails(t *testing.T) {
	_, errOut, code := measureHelper(t, "none", "-n", "1", "-warmup", "0")
	if code != 1 || !strings.Contains(errOut, "made no model request") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage: firstbyte") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
	if code := run([]string{"-config", "nodst", "--", "true"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "want DST=TEMPLATE") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}
