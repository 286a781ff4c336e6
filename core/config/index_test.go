package config

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestIndexDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the cache directory rule tested is Linux's")
	}
	c := &Config{Dirs: Dirs{Home: "/home/u"}, Env: NewEnv([]string{})}
	a, b := c.Index().Dir("/src/a"), c.Index().Dir("/src/b")
	if filepath.Dir(a) != "/home/u/.cache/gopi/index" || a == b {
		t.Errorf("IndexDir: %s and %s; want two directories under ~/.cache/gopi/index", a, b)
	}
	c.Env = NewEnv([]string{"XDG_CACHE_HOME=/xdg"})
	if got := c.Index().Root; got != "/xdg/gopi/index" {
		t.Errorf("with XDG_CACHE_HOME: %s", got)
	}
	c.Env = NewEnv([]string{"XDG_CACHE_HOME=/xdg", EnvIndexDir + "=/ix"})
	if got := c.Index().Root; got != "/ix" {
		t.Errorf("with %s: %s", EnvIndexDir, got)
	}
}
