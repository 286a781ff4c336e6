// Package irc is the irc tool: short prose messages between the live
// agents of one session tree (the main agent and the subagents the task
// tool started). There is no server: a Registry, owned by the top-level
// session and shared with its subagents, lists who is live, and a message
// is handed to the recipient's Peer, which may answer through a side turn
// of its own model without tools (it does not wait for the recipient's
// loop, so an agent inside a long tool call still answers). The exchange
// is put into the recipient's conversation for its next turn.
package irc

import (
	"context"
	"slices"
	"sync"
)

// MainID is the main agent's id.
const MainID = "0-Main"

// Agent statuses. Only running and idle agents can be addressed.
const (
	StatusRunning = "running"
	StatusIdle    = "idle"
)

// Peer is what a live agent does with a message: record it and, with
// awaitReply, answer it. It returns the answer ("" without awaitReply).
type Peer interface {
	Respond(ctx context.Context, from, message string, awaitReply bool) (string, error)
}

// Agent is one entry of the registry.
type Agent struct {
	ID          string        // "0-Main", or the subagent's task id ("0-AuthLoader")
	DisplayName string        // the agent's name ("Main", "explore", …)
	Kind        string        // "main" or "subagent"
	ParentID    string        // the id of the agent that started it; "" for the main agent
	Status      func() string // StatusRunning, StatusIdle or another state
	Peer        Peer          // nil: listed but not reachable
}

// Registry is the directory of a session tree's live agents.
type Registry struct {
	mu     sync.Mutex
	agents []Agent // in registration order
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

// Register adds a; the returned func removes it again (when its session
// closes). A second agent with a's id replaces the first.
func (r *Registry) Register(a Agent) (unregister func()) {
	r.mu.Lock()
	r.agents = slices.DeleteFunc(r.agents, func(x Agent) bool { return x.ID == a.ID })
	r.agents = append(r.agents, a)
	r.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.agents = slices.DeleteFunc(r.agents, func(x Agent) bool { return x.ID == a.ID && x.Peer == a.Peer })
		})
	}
}

// Get returns the agent with this id.
func (r *Registry) Get(id string) (Agent, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.agents {
		if a.ID == id {
			return a, true
		}
	}
	return Agent{}, false
}

// VisibleTo returns the agents other than id that are running or idle.
func (r *Registry) VisibleTo(id string) []Agent {
	r.mu.Lock()
	all := slices.Clone(r.agents)
	r.mu.Unlock()
	var out []Agent
	for _, a := range all {
		if a.ID != id && live(a) {
			out = append(out, a)
		}
	}
	return out
}

// live reports whether a can be addressed.
func live(a Agent) bool {
	if a.Status == nil {
		return false
	}
	s := a.Status()
	return s == StatusRunning || s == StatusIdle
}
