package buildinfo

import (
	"runtime"
	"strings"
	"testing"
)

// The stamp wins where it is set; the report's first line is
// "gopi VERSION" and every fact has its line.
func TestCollect(t *testing.T) {
	bi := Collect(Stamp{Version: "v1", Commit: "abc", Date: "2026-01-02T03:04:05Z", CPUVariant: "baseline"})
	if bi.Version != "v1" || bi.Commit != "abc" || bi.Date != "2026-01-02T03:04:05Z" || !strings.HasPrefix(bi.CPU, "baseline") {
		t.Errorf("stamp not kept: %+v", bi)
	}
	if bi.GoVersion != runtime.Version() || bi.Target != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("toolchain facts: %+v", bi)
	}
	s := bi.String()
	for _, w := range []string{"gopi v1\n", "commit:  abc\n", "built:   2026-01-02T03:04:05Z\n", "cpu:     baseline", "regex:   ", "ast:     "} {
		if !strings.Contains(s, w) {
			t.Errorf("report lacks %q:\n%s", w, s)
		}
	}
	if bi := Collect(Stamp{Version: "dev"}); bi.Commit == "" || bi.Date == "" || bi.CPU == "" {
		t.Errorf("an empty stamp leaves facts empty: %+v", bi)
	}
}
