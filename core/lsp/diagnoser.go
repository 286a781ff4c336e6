package lsp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// Known returns the diagnostics the running servers of abs last
// published for it, merged (see Dedupe); it starts no server and waits
// for nothing. It is core/tool.Diagnoser's view before a write.
func (m *Manager) Known(abs string) []protocol.Diagnostic {
	if !m.Enabled() {
		return nil
	}
	var all []protocol.Diagnostic
	for _, s := range m.Servers().ForFile(abs) {
		if c := m.running(s); c != nil {
			if d, ok := c.Diagnostics(abs); ok {
				all = append(all, d...)
			}
		}
	}
	if len(all) == 0 {
		return nil
	}
	return Dedupe(all)
}

// Fresh tells every server that handles abs that its file changed (the
// servers start if they are not running), and waits until each has
// published diagnostics for the new content or ctx ends. servers names
// the servers that answered. A server that fails is an error naming it
// (the others' diagnostics still come back); when ctx ends first, what
// has arrived comes back with ctx's error. Nothing, and no error, when
// language servers are off or none handles abs.
func (m *Manager) Fresh(ctx context.Context, abs string) (diags []protocol.Diagnostic, servers []string, err error) {
	if !m.Enabled() {
		return nil, nil, nil
	}
	list := m.Servers().ForFile(abs)
	if len(list) == 0 {
		return nil, nil, nil
	}
	type answer struct {
		name  string
		diags []protocol.Diagnostic
		ok    bool
		err   error
	}
	answers := make([]answer, len(list))
	var wg sync.WaitGroup
	for i, s := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := answer{name: s.Name}
			a.diags, a.ok, a.err = m.freshFrom(ctx, s, abs)
			answers[i] = a
		}()
	}
	wg.Wait()
	var errs []error
	for _, a := range answers {
		switch {
		case a.err != nil && ctx.Err() == nil:
			errs = append(errs, fmt.Errorf("%s: %w", a.name, a.err))
		case a.ok:
			servers = append(servers, a.name)
			diags = append(diags, a.diags...)
		}
	}
	if ctx.Err() != nil {
		errs = append(errs, ctx.Err())
	}
	return Dedupe(diags), servers, errors.Join(errs...)
}

// freshFrom synchronises abs with one server and waits for its
// diagnostics.
func (m *Manager) freshFrom(ctx context.Context, s *Server, abs string) ([]protocol.Diagnostic, bool, error) {
	c, _, err := m.Client(ctx, s)
	if err != nil {
		return nil, false, err
	}
	if !s.IsLinter {
		if err := c.WaitProjectLoaded(ctx); err != nil {
			return nil, false, nil
		}
	}
	sync, err := c.SyncFile(ctx, abs)
	if err != nil {
		return nil, false, err
	}
	d, ok := c.FreshDiagnostics(ctx, sync)
	if !ok && ctx.Err() == nil {
		return nil, false, c.goneError()
	}
	return d, ok, nil
}

// Dedupe drops diagnostics with the same range and message as an earlier
// one (two servers reporting one problem) and sorts the rest: by
// severity (errors first; none said counts as an error), then position,
// then message.
func Dedupe(diags []protocol.Diagnostic) []protocol.Diagnostic {
	out := protocol.DedupeDiagnostics(diags)
	protocol.SortDiagnostics(out)
	return out
}
