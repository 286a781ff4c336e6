package agentsession

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// SetExtraTools replaces the tools offered after the built-ins (RPC host
// tools, custom tools) from the next model call on, and rebuilds the system
// prompt's tool list. A name that collides with a built-in is an error.
func (s *Session) SetExtraTools(extra []tool.Tool) error {
	s.mu.Lock()
	s.opts.ExtraTools = append([]tool.Tool(nil), extra...)
	s.mu.Unlock()
	return s.rebuildTools()
}

// SetExtensionTools replaces the tools extensions registered (offered
// after the extra tools). A name that collides is an error; callers skip
// such tools first (BuiltinToolNames).
func (s *Session) SetExtensionTools(tools []tool.Tool) error {
	s.mu.Lock()
	s.opts.ExtensionTools = append([]tool.Tool(nil), tools...)
	s.mu.Unlock()
	return s.rebuildTools()
}

// rebuildTools rebuilds the tool list and the system prompt.
func (s *Session) rebuildTools() error {
	tools, err := s.buildTools(s.toolEnv)
	if err != nil {
		return err
	}
	system, err := s.systemPrompt(tools, nil)
	if err != nil {
		return err
	}
	s.agent.SetTools(tools)
	s.agent.SetSystemPrompt(system)
	return nil
}

// SetActiveTools limits the tools offered to the model to names (an
// extension's pi.setActiveTools); nil offers them all again. Every name
// must be one of AllTools.
func (s *Session) SetActiveTools(names []string) error {
	var active map[string]bool
	if names != nil {
		known := map[string]bool{}
		for _, t := range s.AllTools() {
			known[t.Definition().Name] = true
		}
		active = map[string]bool{}
		for _, n := range names {
			if !known[n] {
				return fmt.Errorf("set active tools: no tool is named %q; the session has %s", n, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
			}
			active[n] = true
		}
	}
	s.mu.Lock()
	s.activeTools = active
	s.mu.Unlock()
	return s.rebuildTools()
}

// AllTools returns every tool the session could offer, active or not.
func (s *Session) AllTools() []tool.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]tool.Tool(nil), s.allTools...)
}

// Tools returns the tools the session offers (hidden ones included).
func (s *Session) Tools() []tool.Tool { return s.agent.Tools() }

// SystemPrompt returns the current system prompt.
func (s *Session) SystemPrompt() string { return s.agent.SystemPrompt() }

// SetUI gives the session a user interface (RPC mode's extension UI, the
// TUI): tools that need one (ask) are offered from the next model call
// on, and the permission gate asks its questions there.
func (s *Session) SetUI(ui tool.UI) error {
	s.toolEnv.UI = ui
	s.perm.UseUI(ui) // unless the mode gave the gate its own asker
	return s.rebuildTools()
}
