package checkpoint

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Tool names.
const (
	CheckpointName = "checkpoint"
	RewindName     = "rewind"
)

// ISOTime formats t as JavaScript's toISOString does (UTC, milliseconds),
// the form of startedAt and rewoundAt in results and session entries.
func ISOTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// CheckpointDetails are the structured part of a checkpoint result.
type CheckpointDetails struct {
	Goal      string `json:"goal"`
	StartedAt string `json:"startedAt"`
}

// RewindDetails are the structured part of a rewind result.
type RewindDetails struct {
	Report  string `json:"report"`
	Rewound bool   `json:"rewound"`
}

const checkpointDescription = `Marks the conversation before an investigation that will take many tool calls (reading, searching, running commands), so that afterwards only a short report of it stays in context.

- Say in ` + "`goal`" + ` what you are about to find out.
- Then investigate. When done, call ` + "`rewind`" + ` with your findings: the calls made since the checkpoint leave the context and the report takes their place.
- You must call ` + "`rewind`" + ` before you finish your turn while a checkpoint is active.
- Only one checkpoint can be active; it is not offered to subagents.
- Files and commands are not undone: only the conversation goes back.`

const rewindDescription = `Ends the active checkpoint: the conversation goes back to where ` + "`checkpoint`" + ` was called and keeps ` + "`report`" + ` instead of the investigation.

- ` + "`report`" + ` must stand on its own: what you found, what you decided, what is still open, with the paths, names and numbers you will need. Leave out raw logs and dead ends unless they matter.
- Fails when no checkpoint is active or the report is empty.
- The rewind happens when the current turn ends; work on with the report.`

// The parameter schemas, exactly as omp sends them (Raw) with the parsed
// form that validates the arguments.
var (
	checkpointParams = rawObject("goal", "investigation goal", `{"type":"object","required":["goal"],"properties":{"goal":{"description":"investigation goal","examples":["investigate retry logic"],"type":"string"}}}`)
	rewindParams     = rawObject("report", "investigation findings", `{"type":"object","required":["report"],"properties":{"report":{"description":"investigation findings","type":"string"}}}`)
)

func rawObject(field, desc, raw string) *tool.Schema {
	s := tool.Object(map[string]*tool.Schema{field: tool.String(desc)}, field)
	s.Raw = json.RawMessage(raw)
	return s
}

// stateTool is checkpoint or rewind: a definition, and the step its one
// string argument takes the session's State through.
type stateTool struct {
	def      tool.Definition
	arg      string // the argument's name
	step     func(s *State, arg string) (*tool.Result, error)
	state    *State
	topLevel bool // false in a subagent: every call fails
}

// NewCheckpoint returns the checkpoint tool over the session's state;
// topLevel is false in a subagent, where every call fails.
func NewCheckpoint(state *State, topLevel bool) tool.Tool {
	return &stateTool{def: tool.Definition{Name: CheckpointName, Label: "Checkpoint", Description: checkpointDescription,
		Parameters: checkpointParams, Concurrency: tool.Exclusive, ReadOnly: true},
		arg: "goal", step: begin, state: state, topLevel: topLevel}
}

// NewRewind returns the rewind tool over the session's state; topLevel is
// false in a subagent, where every call fails. The session applies the
// rewind when the turn ends.
func NewRewind(state *State, topLevel bool) tool.Tool {
	return &stateTool{def: tool.Definition{Name: RewindName, Label: "Rewind", Description: rewindDescription,
		Parameters: rewindParams, Concurrency: tool.Exclusive, ReadOnly: true},
		arg: "report", step: request, state: state, topLevel: topLevel}
}

// Definition describes the tool.
func (t *stateTool) Definition() tool.Definition { return t.def }

// Execute takes the tool's step.
func (t *stateTool) Execute(_ context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	if !t.topLevel {
		return nil, stateError(MsgSubagent)
	}
	v, _ := args[t.arg].(string)
	return t.step(t.state, v)
}

// begin starts the checkpoint for goal.
func begin(s *State, goal string) (*tool.Result, error) {
	m, err := s.Begin(goal)
	if err != nil {
		return nil, err
	}
	text := strings.Join([]string{"Checkpoint created.", "Goal: " + goal, "Run your investigation, then call rewind with a concise report."}, "\n")
	return tool.TextResult(text, CheckpointDetails{Goal: goal, StartedAt: ISOTime(m.StartedAt)}), nil
}

// request asks for the rewind with report.
func request(s *State, report string) (*tool.Result, error) {
	report, err := s.Request(report)
	if err != nil {
		return nil, err
	}
	return tool.TextResult("Rewind requested.\nReport captured for context replacement.", RewindDetails{Report: report, Rewound: true}), nil
}
