package config

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

func TestScanCachePolicy(t *testing.T) {
	def := fscache.DefaultPolicy
	for _, tc := range []struct {
		ttl, recheck, max string
		want              fscache.Policy
	}{
		{"", "", "", def},
		{"0", "0", "1", fscache.Policy{TTL: 0, EmptyRecheck: 0, MaxEntries: 1}},
		{"250", "50", "3", fscache.Policy{TTL: 250 * time.Millisecond, EmptyRecheck: 50 * time.Millisecond, MaxEntries: 3}},
		{"abc", "-1", "0", def},
		{" 5", "1.5", "-3", def},
		{"99999999999999999999", "1e3", "0x10", def},
	} {
		c := &Config{Dirs: Dirs{Home: "/h"}, Env: EnvFromMap(map[string]string{
			EnvScanCacheTTL: tc.ttl, EnvScanEmptyRecheck: tc.recheck, EnvScanCacheEntries: tc.max, "XDG_CONFIG_HOME": "/x",
		})}
		got := c.ScanCachePolicy()
		if got.ExcludesFile != "/x/git/ignore" {
			t.Errorf("excludes file %q", got.ExcludesFile)
		}
		got.ExcludesFile = ""
		if got != tc.want {
			t.Errorf("env (%q, %q, %q): got %+v, want %+v", tc.ttl, tc.recheck, tc.max, got, tc.want)
		}
	}
}

func TestScanCachePolicyExcludesFromGitConfig(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gitconfig", "[core]\n\texcludesFile = ~/my-ignore\n")
	if got := f.load().ScanCachePolicy().ExcludesFile; got != filepath.Join(f.home, "my-ignore") {
		t.Fatal(got)
	}
}

func TestEngineValues(t *testing.T) {
	for _, tc := range []struct {
		max  string
		want int
	}{{"", 0}, {"12", 12}, {" 7 ", 7}, {"0", 0}, {"-3", 0}, {"x", 0}} {
		c := &Config{Env: EnvFromMap(map[string]string{EnvMaxASTFiles: tc.max})}
		if got := c.ASTMaxFiles(); got != tc.want {
			t.Errorf("PI_MAX_AST_FILES=%q: %d", tc.max, got)
		}
	}
	c := &Config{Env: EnvFromMap(map[string]string{EnvHashlineSeparator: ">>"})}
	if c.HashlineSeparator() != ">>" || (&Config{}).HashlineSeparator() != "" {
		t.Fatal("PI_HL_SEP")
	}
}

func TestASTParseCacheBytes(t *testing.T) {
	for _, tc := range []struct {
		mb   string
		want int64
	}{{"", 0}, {"64", 64 << 20}, {" 1 ", 1 << 20}, {"0", -1}, {"-3", 0}, {"x", 0}} {
		c := &Config{Env: EnvFromMap(map[string]string{EnvASTParseCacheMB: tc.mb, EnvGrepContentMB: tc.mb})}
		if got := c.CacheBudgets().ASTParse; got != tc.want {
			t.Errorf("PI_AST_PARSE_CACHE_MB=%q: %d, want %d", tc.mb, got, tc.want)
		}
		if got := c.CacheBudgets().GrepContent; got != tc.want {
			t.Errorf("PI_GREP_CONTENT_CACHE_MB=%q: %d, want %d", tc.mb, got, tc.want)
		}
	}
}
