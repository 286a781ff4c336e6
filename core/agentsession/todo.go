package agentsession

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tools/todo"
)

// TodoPhase is one phase of the session's todo plan (todo_write's state).
type TodoPhase = todo.Phase

// TodoTask is one task of a phase.
type TodoTask = todo.Task

// UserTodoEdit is the custom entry type recording a plan set from outside
// the model (RPC set_todos), as omp names it.
const UserTodoEdit = "user_todo_edit"

// restoreTodos loads the latest plan on the store's path: the newest
// user_todo_edit entry or successful todo_write result. Only those kinds
// of entries are read, so resuming a long session does not decode all of
// its messages.
func (s *Session) restoreTodos(store *session.Manager) {
	path := store.SelectPath(store.LeafID(), session.Selector{Types: []string{session.TypeCustom, session.TypeMessage},
		Roles: []ai.Role{ai.RoleToolResult}, ToolNames: []string{"todo_write"}})
	for i := len(path) - 1; i >= 0; i-- {
		e := path[i]
		var raw json.RawMessage
		switch {
		case e.Type == session.TypeCustom && e.Custom != nil && e.Custom.CustomType == UserTodoEdit:
			raw, _ = json.Marshal(e.Custom.Data)
		case e.Type == session.TypeMessage:
			r, ok := e.Message.(*ai.ToolResultMessage)
			if !ok || r.ToolName != "todo_write" || r.IsError {
				continue
			}
			raw, _ = json.Marshal(r.Details)
		default:
			continue
		}
		var d struct {
			Phases []TodoPhase `json:"phases"`
		}
		if json.Unmarshal(raw, &d) == nil && d.Phases != nil {
			_, _ = s.svc.Todos.Set(d.Phases)
			return
		}
	}
	_, _ = s.svc.Todos.Set(nil)
}

// TodoReminder is emitted when the model stopped with unfinished todo
// tasks and is sent back to them ({type:"todo_reminder",todos,attempt,
// maxAttempts}).
type TodoReminder struct {
	Todos       []TodoTask `json:"todos"`
	Attempt     int        `json:"attempt"`
	MaxAttempts int        `json:"maxAttempts"`
}

// TodoAutoClear is emitted when a run ends with every todo task done, so
// front ends can clear the plan from view.
type TodoAutoClear struct{}

// EventType implementations.
func (TodoReminder) EventType() string  { return "todo_reminder" }
func (TodoAutoClear) EventType() string { return "todo_auto_clear" }

// MarshalJSON encodes the todo_reminder object.
func (e TodoReminder) MarshalJSON() ([]byte, error) {
	type plain TodoReminder
	return marshalTyped("todo_reminder", plain(e))
}

// MarshalJSON encodes {"type":"todo_auto_clear"}.
func (TodoAutoClear) MarshalJSON() ([]byte, error) { return []byte(`{"type":"todo_auto_clear"}`), nil }

func marshalTyped(typ string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	head := `{"type":"` + typ + `"`
	if string(body) == "{}" {
		return []byte(head + "}"), nil
	}
	return append([]byte(head+","), body[1:]...), nil
}

var _ agent.Event = TodoReminder{}

// todoFollowUp decides what happens after a run: when the model stopped
// (not failed, no tool calls pending) with unfinished tasks and reminders
// are on and not used up, it returns the reminder message to send; when
// the plan is fully done it announces todo_auto_clear.
func (s *Session) todoFollowUp(attempt int, changed bool) ai.Message {
	st := s.cfg.Settings
	phases := s.tools.TodoPhases()
	open := todo.Incomplete(phases)
	if len(phases) > 0 && len(open) == 0 && changed {
		s.emit(TodoAutoClear{})
		return nil
	}
	if !st.Bool("todo.enabled") || !st.Bool("todo.reminders") || len(open) == 0 {
		return nil
	}
	last := s.LastAssistant()
	if last == nil || last.StopReason != ai.StopReasonStop || len(last.ToolCalls()) > 0 {
		return nil
	}
	max := st.Int("todo.reminders.max")
	if attempt >= max {
		return nil
	}
	var tasks []TodoTask
	var b strings.Builder
	for _, p := range open {
		fmt.Fprintf(&b, "- %s\n", p.Name)
		for _, t := range p.Tasks {
			fmt.Fprintf(&b, "  - %s\n", t.Content)
			tasks = append(tasks, t)
		}
	}
	s.emit(TodoReminder{Todos: tasks, Attempt: attempt + 1, MaxAttempts: max})
	text := fmt.Sprintf("You stopped with %d unfinished task(s) in your plan:\n%sContinue with them, or mark them done or dropped with todo_write if they are finished or no longer needed. (Reminder %d of %d.)", len(tasks), b.String(), attempt+1, max)
	return &message.Custom{CustomType: "todo-reminder", Content: message.PlainText(text), Display: false, Attribution: "agent", Timestamp: nowMillis()}
}
