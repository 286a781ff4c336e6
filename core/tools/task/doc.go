// Package task is the task tool: the model hands one or several
// assignments to subagents that run in parallel, each in a child session
// of its own — its own session file (whose header names the parent's as
// parentSession), its own tools, and a model picked by the agent
// definition's role (pi/smol, pi/slow, …) or the parent's.
//
// Agent definitions are markdown files with a YAML front matter (name,
// description, tools, spawns, model, thinking-level) whose body is added to
// the subagent's system prompt. Three are built in (explore, plan,
// implement); the user's come from <agent dir>/agents and .gopi/agents,
// then omp's ~/.omp/agent/agents and .omp/agents. The first definition of
// a name wins.
//
// The tool does not create sessions itself: the session that offers it
// binds a Host to its tool Env (Bind), and the Host starts the children.
// That keeps this package free of core/agentsession, which builds the
// tools. A task's progress (pending, running, completed, failed, aborted)
// is reported through the tool's update callback; aborting the parent's
// run cancels every child. A subagent's final answer is returned capped by
// PI_TASK_MAX_OUTPUT_BYTES and PI_TASK_MAX_OUTPUT_LINES, and kept whole as
// agent://<id> (<id>.md in the session's artifacts directory, next to the
// child's session file <id>.jsonl).
package task
