package search

import (
	"os"
	"strings"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/pathspec"
)

// internalSchemes are the internal URL schemes of the agent; artifact://
// and the session's skill:// and rule:// have backing files.
var internalSchemes = []string{"agent://", "artifact://", "issue://", "local://", "mcp://", "memory://", "pi://", "pr://", "rule://", "skill://"}

// target is one entry to search.
type target struct {
	*pathspec.Spec
	immutable bool // an internal resource: no edit anchors, no read-cache records
}

// resolveTargets parses entries, resolves internal URLs to their backing
// files and drops missing entries (an error when every entry is missing).
func (t *Tool) resolveTargets(entries []string) ([]target, []string, error) {
	if len(entries) == 0 {
		return nil, nil, tool.Errorf("`paths` must contain non-empty paths or globs")
	}
	var local []string
	var targets []target
	var missing []string
	for _, e := range entries {
		in := pathspec.Normalize(e)
		if in == "" {
			return nil, nil, tool.Errorf("`paths` must contain non-empty paths or globs")
		}
		scheme := internalScheme(in)
		if scheme == "" {
			local = append(local, in)
			continue
		}
		if pathspec.HasGlobChars(strings.TrimPrefix(in, scheme)) {
			return nil, nil, tool.Errorf("Glob patterns are not supported for internal URLs: %s", in)
		}
		path, served, err := t.env.InternalFile(in) // skill://, rule://
		switch {
		case served && err != nil:
			return nil, nil, &tool.Error{Msg: err.Error(), Err: err}
		case served:
		case scheme != artifact.Scheme:
			return nil, nil, tool.Errorf("Cannot search internal URL without a backing file: %s", in)
		case t.env.Artifacts == nil:
			return nil, nil, &tool.Error{Msg: artifact.ErrNoDir.Error(), Err: artifact.ErrNoDir}
		default:
			if path, err = t.env.Artifacts.Path(in); err != nil {
				return nil, nil, &tool.Error{Msg: err.Error(), Err: err}
			}
		}
		info, err := os.Stat(path)
		if err != nil {
			return nil, nil, tool.Errorf("Cannot search %s: %v", in, err)
		}
		targets = append(targets, target{Spec: &pathspec.Spec{Input: in, Base: path, Info: info}, immutable: true})
	}
	specs, err := pathspec.Parse(t.env, local)
	if err != nil {
		return nil, nil, err
	}
	present, miss := pathspec.Partition(specs)
	missing = append(missing, miss...)
	for _, s := range present {
		if s.Glob != "" && !s.Info.IsDir() {
			return nil, nil, tool.Errorf("Path is not a directory: %s", t.env.DisplayPath(s.Base))
		}
		targets = append(targets, target{Spec: s})
	}
	if len(targets) == 0 {
		return nil, nil, tool.Errorf("Path not found: %s", strings.Join(missing, ", "))
	}
	return targets, missing, nil
}

func internalScheme(s string) string {
	for _, sc := range internalSchemes {
		if strings.HasPrefix(s, sc) {
			return sc
		}
	}
	return ""
}
