package task

import "github.com/gopi-agent/gopi/core/ai"

// Status is where a task stands.
type Status string

// Task statuses.
const (
	StatusPending   Status = "pending"   // waiting for a free slot (task.maxConcurrency)
	StatusRunning   Status = "running"   // its subagent is working
	StatusCompleted Status = "completed" // the subagent gave its final answer
	StatusFailed    Status = "failed"    // the subagent could not be started, or its run failed
	StatusAborted   Status = "aborted"   // the parent's run was aborted
)

// Progress is one task as the updates report it.
type Progress struct {
	Index       int    `json:"index"`                 // position in the call's tasks
	ID          string `json:"id"`                    // output id: agent://<id>
	Agent       string `json:"agent"`                 // agent name
	AgentSource string `json:"agentSource"`           // bundled, user or project
	Status      Status `json:"status"`                // pending, running, completed, failed, aborted
	Description string `json:"description,omitempty"` // the one-line label the model gave
	Assignment  string `json:"assignment,omitempty"`  // what the subagent was asked
	CurrentTool string `json:"currentTool,omitempty"` // the tool the subagent is running
	ToolCount   int    `json:"toolCount"`             // tool calls the subagent made
	Tokens      int    `json:"tokens"`                // tokens its requests used
	DurationMs  int64  `json:"durationMs"`            // time since it started
	Model       string `json:"model,omitempty"`       // "provider/id" of the subagent's model
	SessionFile string `json:"sessionFile,omitempty"` // the child's session file (parentSession: this session's)
}

// Result is one finished task.
type Result struct {
	Progress
	Output     string      `json:"output"`                 // the final answer, capped by PI_TASK_MAX_OUTPUT_BYTES / _LINES (its tail is kept)
	Truncated  bool        `json:"truncated"`              // Output was cut
	Error      string      `json:"error,omitempty"`        // why it failed or was aborted
	Aborted    bool        `json:"aborted,omitempty"`      // the parent's run was aborted
	OutputPath string      `json:"outputPath,omitempty"`   // the file with the whole answer (agent://<id>)
	OutputMeta *OutputMeta `json:"outputMeta,omitempty"`   // size of the whole answer
	Usage      *ai.Usage   `json:"usage,omitempty"`        // tokens and cost of the subagent's requests
	Ignored    []string    `json:"ignoredTools,omitempty"` // tools the agent names that this gopi does not have
}

// OutputMeta is the size of a whole answer.
type OutputMeta struct {
	LineCount int `json:"lineCount"`
	CharCount int `json:"charCount"`
}

// Details is the structured part of the tool's results: Progress in
// updates, Results in the final one.
type Details struct {
	Agent           string     `json:"agent"`                 // the agent of the call
	Results         []Result   `json:"results"`               // finished tasks (final result)
	Progress        []Progress `json:"progress,omitempty"`    // every task's state (updates)
	TotalDurationMs int64      `json:"totalDurationMs"`       // time since the call started
	OutputPaths     []string   `json:"outputPaths,omitempty"` // files holding whole answers
	Async           *Async     `json:"async,omitempty"`       // the tasks run as background jobs
}

// Async describes tasks started as background jobs.
type Async struct {
	State string `json:"state"` // running, completed or failed
	JobID string `json:"jobId"` // the first task's job
	Type  string `json:"type"`  // "task"
}
