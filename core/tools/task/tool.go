package task

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
)

// toolName is the tool's name.
const toolName = "task"

// Tool is the task tool of a session.
type Tool struct {
	env      *tool.Env
	host     Host         // starts the subagents; nil: none can start
	jobs     *job.Manager // background tasks (async.enabled)
	ids      *IDs         // task ids without an artifacts directory
	agents   []*Agent     // every definition found, in priority order
	problems []error      // definition files that could not be used
	desc     string
}

// New returns the task tool for env, starting subagents through h (the
// session; nil: none can start), background tasks under jobs and
// numbering tasks with ids when there is no artifacts directory (the
// session's services own all three). The agent definitions are read
// once, here, for the configuration of h (the bundled ones only when
// there is none).
func New(env *tool.Env, h Host, jobs *job.Manager, ids *IDs) tool.Tool {
	t := &Tool{env: env, host: h, jobs: jobs, ids: ids}
	var ts config.Task
	pos := TopLevel
	if h != nil {
		var extra []ExtraDir
		if p, ok := h.(PluginAgents); ok {
			extra = p.PluginAgentDirs()
		}
		t.agents, t.problems = Discover(h.Config().Dirs, extra...)
		ts, pos = h.Config().Task(), h.Position()
	} else {
		t.agents = Bundled()
		ts.MaxConcurrency = 32
	}
	t.desc = description(t.offered(ts, pos), max(ts.MaxConcurrency, 1))
	return t
}

// Available reports whether a session with host h may start subagents:
// it has a host, and its place in the task tree leaves room for another
// level (task.maxRecursionDepth) and some agent to start.
func Available(h Host) bool {
	return h != nil && canSpawn(h.Position(), h.Config().Task())
}

// canSpawn reports whether a session at pos may start subagents: a
// top-level session always may; a subagent when it is allowed some agent
// and its depth is below task.maxRecursionDepth (negative: no limit).
func canSpawn(pos Position, ts config.Task) bool {
	if len(pos.Spawns) == 0 {
		return false
	}
	return pos.Depth == 0 || ts.MaxRecursionDepth < 0 || pos.Depth < ts.MaxRecursionDepth
}

// offered returns the agents the session may start: not disabled, and
// allowed by its position.
func (t *Tool) offered(ts config.Task, pos Position) []*Agent {
	var out []*Agent
	for _, a := range t.agents {
		if !slices.Contains(ts.DisabledAgents, a.Name) && pos.MaySpawn(a.Name) {
			out = append(out, a)
		}
	}
	return out
}

// find returns the agent named name, nil when none.
func (t *Tool) find(name string) *Agent {
	for _, a := range t.agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

const descriptionHead = `Hand work to subagents. Each task runs in a session of its own, with the tools and model of the chosen agent, in parallel with the other tasks of the call (at most %d at a time); you get back each one's final answer.
A subagent starts from nothing: it does not see this conversation. Put background that every task needs in context, and in each assignment what that task must do, where, and how to check it. Parallel tasks must not edit the same files. Long answers are cut; the whole text stays readable at agent://<id>.
Agents:`

// description renders the model-facing description.
func description(agents []*Agent, concurrency int) string {
	var b strings.Builder
	fmt.Fprintf(&b, descriptionHead, concurrency)
	for _, a := range agents {
		b.WriteString("\n- " + a.Name + ": " + a.Description)
	}
	return b.String()
}

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	item := tool.Object(map[string]*tool.Schema{
		"id":          tool.String("short CamelCase name, unique in the call (letters, digits, _ and -; at most 48)"),
		"description": tool.String("one line for the user's display; the subagent does not see it"),
		"assignment":  tool.String("everything this subagent must do: goal, files, constraints, how to verify"),
	}, "id", "description", "assignment")
	return tool.Definition{
		Name:        toolName,
		Label:       "Task",
		Description: t.desc,
		Parameters: tool.Object(map[string]*tool.Schema{
			"agent":   tool.String("the agent that runs every task of this call"),
			"context": tool.String("background shared by all tasks, given to each subagent"),
			"tasks":   {Type: "array", Items: item, MinItems: tool.Ptr(1), Description: "tasks to run in parallel"},
		}, "agent", "tasks"),
		// Subagents edit files: nothing else runs beside them.
		Concurrency: tool.Exclusive,
	}
}

// Access reports that a task call needs no permission of its own: each
// subagent's calls go through the session's permission gate.
func (t *Tool) Access(tool.Args) tool.Access { return tool.Access{} }
