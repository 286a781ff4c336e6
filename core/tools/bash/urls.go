package bash

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/shell"
	"github.com/gopi-agent/gopi/core/tool"
)

// internalURL finds internal URLs in shell text: bare, or in single or
// double quotes (the quotes are replaced with the path).
var internalURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`'(?:skill|agent|artifact|plan|memory|rule|local)://[^'\s")` + "`" + `\\]+'|"(?:skill|agent|artifact|plan|memory|rule|local)://[^"\s')` + "`" + `\\]+"|(?:skill|agent|artifact|plan|memory|rule|local)://[^\s'")` + "`" + `\\]+`)
})

// expandURLs replaces the internal URLs in text with the paths of the
// files they name: shell-quoted for command text, as they are for env
// values and directories (quote false). artifact://, agent:// (a
// subagent's full output), local:// (the session's scratch directory)
// and the session's skill:// and rule:// resolve; the other internal
// schemes are errors that say so. With mkdirs the parent directories of
// a local:// file are created, so a command can write to it (as omp does
// for the command and its environment, not for the working directory).
func expandURLs(env *tool.Env, text string, quote, mkdirs bool) (string, error) {
	if !strings.Contains(text, "://") {
		return text, nil
	}
	var firstErr error
	out := internalURL().ReplaceAllStringFunc(text, func(tok string) string {
		if firstErr != nil {
			return tok
		}
		url := strings.Trim(tok, `'"`)
		path, err := resolveURL(env, url, mkdirs)
		if err != nil {
			firstErr = err
			return tok
		}
		if quote {
			return shell.Quote(path)
		}
		return path
	})
	if firstErr != nil {
		return "", firstErr
	}
	return out, nil
}

// resolveURL maps one internal URL to a file path.
func resolveURL(env *tool.Env, url string, mkdirs bool) (string, error) {
	if path, ok, err := env.LocalFile(url); ok {
		if err != nil {
			return "", err
		}
		if mkdirs {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return "", tool.Errorf("Cannot create the directory of %s for the bash command: %v", url, err)
			}
		}
		return path, nil
	}
	if path, served, err := env.InternalFile(url); served { // skill://, rule://
		if err != nil {
			return "", tool.Errorf("Cannot resolve %s in bash command: %v", url, err)
		}
		return path, nil
	}
	scheme, _, _ := strings.Cut(url, "://")
	if scheme != "artifact" && scheme != "agent" {
		return "", tool.Errorf("Cannot resolve %s:// URL in bash command: %s\nThis session has no %s:// resources; artifact://, agent://, local:// and the session's skill:// and rule:// URLs can be used in shell commands.", scheme, url, scheme)
	}
	if env.Artifacts == nil {
		return "", tool.Errorf("Cannot resolve %s in bash command: %s", url, artifact.ErrNoDir)
	}
	var path string
	var err error
	if scheme == "agent" {
		path, err = env.Artifacts.AgentOutputFile(url)
	} else {
		path, err = env.Artifacts.Path(url)
	}
	if err != nil {
		return "", tool.Errorf("Failed to resolve %s:// URL in bash command: %s\n%s", scheme, url, err)
	}
	return path, nil
}
