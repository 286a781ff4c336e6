package read

import (
	"context"
	"os"
	"strings"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
)

// internalSchemes are the agent's internal URL schemes. artifact:// and
// agent:// are served so far; the others join as their stores appear.
var internalSchemes = []string{"agent://", "artifact://", "issue://", "local://", "mcp://", "memory://", "pi://", "pr://", "rule://", "skill://"}

// isInternalURL reports whether target names an internal resource.
func isInternalURL(target string) bool {
	for _, s := range internalSchemes {
		if strings.HasPrefix(target, s) {
			return true
		}
	}
	return false
}

// readInternal pages an internal resource in memory. Internal resources
// are immutable, so they never carry edit anchors and are not recorded in
// the read cache.
func (t *Tool) readInternal(ctx context.Context, target string) (*tool.Result, error) {
	if r, ok := t.env.SchemeReader(stripSelector(target)); ok {
		// A scheme the session serves itself (mcp://).
		ref, sel, err := SplitSelector(target)
		if err != nil {
			return nil, &tool.Error{Msg: err.Error(), Err: err}
		}
		return t.readFrom(ctx, r, ref, sel)
	}
	if res, served, err := t.readSessionResource(ctx, target); served {
		return res, err
	}
	agent := strings.HasPrefix(target, artifact.AgentScheme)
	if !agent && !strings.HasPrefix(target, artifact.Scheme) {
		scheme, _, _ := strings.Cut(target, "://")
		return nil, tool.Errorf("Cannot read %s: %s:// resources are not available in this session; read a file path, artifact://<id> or agent://<id>.", target, scheme)
	}
	ref, sel, err := SplitSelector(target)
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	store := t.env.Artifacts
	var content string
	switch {
	case agent && store == nil:
		return nil, tool.Errorf("No session - agent outputs unavailable")
	case store == nil:
		return nil, &tool.Error{Msg: artifact.ErrNoDir.Error(), Err: artifact.ErrNoDir}
	case agent:
		content, err = store.ReadAgentOutput(ref)
	default:
		content, err = store.Read(ref)
	}
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	d := &Details{Source: ref}
	text, _, err := t.render(strings.NewReader(content), sel, ref, t.env.DisplayMode(sel.Raw, true), d)
	if err != nil {
		return nil, err
	}
	return tool.TextResult(text, d), nil
}

// readSessionResource reads a URL the session serves (skill://, rule://;
// see tool.InternalResources). served is false when it serves none such.
func (t *Tool) readSessionResource(ctx context.Context, target string) (res *tool.Result, served bool, err error) {
	r := t.env.InternalResources()
	if r == nil {
		return nil, false, nil
	}
	ref, sel, err := SplitSelector(target)
	if err != nil {
		return nil, false, nil
	}
	// A directory (skill://name/references) is listed like a local one.
	if dir, served, err := r.InternalFile(ref); served && err == nil {
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			res, err := t.readLocal(ctx, dir)
			return res, true, err
		}
	}
	content, file, served, err := r.ReadInternal(ref)
	if !served {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, &tool.Error{Msg: err.Error(), Err: err}
	}
	d := &Details{Source: ref, ResolvedPath: file}
	text, _, err := t.render(strings.NewReader(content), sel, ref, t.env.DisplayMode(sel.Raw, true), d)
	if err != nil {
		return nil, true, err
	}
	return tool.TextResult(text, d), true, nil
}
