package read

import (
	"context"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// isHostURI reports whether target is a URL of a scheme the embedding host
// owns (RPC mode's set_host_uri_schemes).
func (t *Tool) isHostURI(target string) bool {
	_, _, ok := t.env.HostURI(stripSelector(target))
	return ok
}

// stripSelector drops a trailing line selector (":10-20", ":raw") so the
// scheme lookup and the host see the bare URL.
func stripSelector(target string) string {
	ref, _, err := SplitSelector(target)
	if err != nil {
		return target
	}
	return ref
}

// readHost asks the host for the URL's content and pages it like an
// internal resource: line numbers but no edit anchors (edit does not
// target host URLs).
func (t *Tool) readHost(ctx context.Context, target string) (*tool.Result, error) {
	ref, sel, err := SplitSelector(target)
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	_, h, _ := t.env.HostURI(ref)
	return t.readFrom(ctx, h, ref, sel)
}

// readFrom asks r for ref's content and pages it like an in-memory
// file: the host's scheme, or an internal scheme the session serves.
func (t *Tool) readFrom(ctx context.Context, r tool.SchemeReader, ref string, sel Selector) (*tool.Result, error) {
	c, err := r.ReadURI(ctx, ref)
	if err != nil {
		return nil, tool.Errorf("Cannot read %s: %v", ref, err)
	}
	d := &Details{Source: ref}
	text, _, err := t.render(strings.NewReader(c.Content), sel, ref, t.env.DisplayMode(sel.Raw, true), d)
	if err != nil {
		return nil, err
	}
	if len(c.Notes) > 0 {
		text = "[" + strings.Join(c.Notes, "; ") + "]\n" + text
	}
	return tool.TextResult(text, d), nil
}
