package agentsession

import (
	"fmt"
	"strconv"
)

// TodoPhase is one phase of the session's todo plan.
type TodoPhase struct {
	ID    string     `json:"id"`
	Name  string     `json:"name"`
	Tasks []TodoTask `json:"tasks"`
}

// TodoTask is one task of a phase.
type TodoTask struct {
	ID      string `json:"id"`
	Content string `json:"content"`
	Status  string `json:"status"` // pending, in_progress, completed or abandoned
}

// SetTodoPhases replaces the in-memory todo plan (RPC set_todos) and
// returns it normalised: missing ids are numbered, a missing status is
// pending, an unknown status is an error.
func (s *Session) SetTodoPhases(phases []TodoPhase) ([]TodoPhase, error) {
	out := make([]TodoPhase, len(phases))
	for i, p := range phases {
		if p.ID == "" {
			p.ID = "phase-" + strconv.Itoa(i+1)
		}
		tasks := make([]TodoTask, len(p.Tasks))
		for j, t := range p.Tasks {
			if t.ID == "" {
				t.ID = "task-" + strconv.Itoa(j+1)
			}
			switch t.Status {
			case "":
				t.Status = "pending"
			case "pending", "in_progress", "completed", "abandoned":
			default:
				return nil, fmt.Errorf("task %s: unknown status %q; use pending, in_progress, completed or abandoned", t.ID, t.Status)
			}
			tasks[j] = t
		}
		p.Tasks = tasks
		out[i] = p
	}
	s.mu.Lock()
	s.todo = out
	s.mu.Unlock()
	return out, nil
}

// TodoPhases returns the todo plan.
func (s *Session) TodoPhases() []TodoPhase {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]TodoPhase{}, s.todo...)
}

// AutoCompaction reports whether automatic compaction is on (the setting
// compaction.enabled, changed at run time by SetAutoCompaction).
func (s *Session) AutoCompaction() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.autoCompaction != nil {
		return *s.autoCompaction
	}
	return s.cfg.Settings.Compaction().Enabled
}

// SetAutoCompaction turns automatic compaction on or off for this session.
func (s *Session) SetAutoCompaction(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.autoCompaction = &on
}

// SetAutoRetry turns automatic retries on or off.
func (s *Session) SetAutoRetry(on bool) {
	r := s.agent.Retry()
	r.Enabled = on
	s.agent.SetRetry(r)
}
