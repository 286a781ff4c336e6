package dap

import (
	godap "github.com/google/go-dap"
)

// isoMillis is the time format of summaries (JavaScript's toISOString).
const isoMillis = "2006-01-02T15:04:05.000Z"

// Status is where a debug session is.
type Status string

// Session states.
const (
	StatusLaunching   Status = "launching"   // the adapter is starting the program
	StatusConfiguring Status = "configuring" // initialized; configurationDone not sent yet
	StatusStopped     Status = "stopped"     // the program is paused (breakpoint, step, pause, entry)
	StatusRunning     Status = "running"     // the program runs
	StatusTerminated  Status = "terminated"  // the program or the adapter has ended
)

// Summary is the state of a session as the tool reports it (omp's
// DapSessionSummary, with its JSON names).
type Summary struct {
	ID                          string        `json:"id"`
	Adapter                     string        `json:"adapter"`
	Cwd                         string        `json:"cwd"`
	Program                     string        `json:"program,omitempty"`
	Status                      Status        `json:"status"`
	LaunchedAt                  string        `json:"launchedAt"`
	LastUsedAt                  string        `json:"lastUsedAt"`
	ThreadID                    *int          `json:"threadId,omitempty"`
	FrameID                     *int          `json:"frameId,omitempty"`
	StopReason                  string        `json:"stopReason,omitempty"`
	StopDescription             string        `json:"stopDescription,omitempty"`
	FrameName                   string        `json:"frameName,omitempty"`
	InstructionPointerReference string        `json:"instructionPointerReference,omitempty"`
	Source                      *godap.Source `json:"source,omitempty"`
	Line                        *int          `json:"line,omitempty"`
	Column                      *int          `json:"column,omitempty"`
	BreakpointFiles             int           `json:"breakpointFiles"`
	BreakpointCount             int           `json:"breakpointCount"`
	FunctionBreakpointCount     int           `json:"functionBreakpointCount"`
	OutputBytes                 int           `json:"outputBytes"`
	OutputTruncated             bool          `json:"outputTruncated"`
	ExitCode                    *int          `json:"exitCode,omitempty"`
	NeedsConfigurationDone      bool          `json:"needsConfigurationDone"`
}

// stopLocation is where the program last stopped.
type stopLocation struct {
	threadID    *int
	frameID     *int
	reason      string
	description string
	frameName   string
	ipRef       string
	source      *godap.Source
	line        *int
	column      *int
}

// SourceBreakpoint is a line breakpoint as the session keeps it.
type SourceBreakpoint struct {
	Line      int    `json:"line"`
	Condition string `json:"condition,omitempty"`
	ID        *int   `json:"id,omitempty"`
	Verified  bool   `json:"verified"`
	Message   string `json:"message,omitempty"`
}

// FunctionBreakpoint is a function breakpoint as the session keeps it.
type FunctionBreakpoint struct {
	Name      string `json:"name"`
	Condition string `json:"condition,omitempty"`
	ID        *int   `json:"id,omitempty"`
	Verified  bool   `json:"verified"`
	Message   string `json:"message,omitempty"`
}

// InstructionBreakpoint is an instruction breakpoint with what the
// adapter said of it.
type InstructionBreakpoint struct {
	InstructionReference string `json:"instructionReference"`
	Offset               *int   `json:"offset,omitempty"`
	Condition            string `json:"condition,omitempty"`
	HitCondition         string `json:"hitCondition,omitempty"`
	ID                   *int   `json:"id,omitempty"`
	Verified             bool   `json:"verified"`
	Message              string `json:"message,omitempty"`
}

// DataBreakpoint is a data breakpoint (watchpoint) with what the adapter
// said of it.
type DataBreakpoint struct {
	DataID       string `json:"dataId"`
	AccessType   string `json:"accessType,omitempty"`
	Condition    string `json:"condition,omitempty"`
	HitCondition string `json:"hitCondition,omitempty"`
	ID           *int   `json:"id,omitempty"`
	Verified     bool   `json:"verified"`
	Message      string `json:"message,omitempty"`
}

// Outcome is what continue or a step led to.
type Outcome struct {
	Summary  Summary
	State    Status // stopped, terminated or running
	TimedOut bool   // the program still ran when the wait ended
}

// summaryLocked builds s's summary; the Manager's lock is held.
func (s *session) summaryLocked() Summary {
	_, total, truncated := s.output.snapshot()
	count := 0
	for _, bps := range s.breakpoints {
		count += len(bps)
	}
	return Summary{
		ID: s.id, Adapter: s.adapter.Name, Cwd: s.cwd, Program: s.program, Status: s.status,
		LaunchedAt: s.launchedAt.UTC().Format(isoMillis), LastUsedAt: s.lastUsedAt.UTC().Format(isoMillis),
		ThreadID: s.stop.threadID, FrameID: s.stop.frameID, StopReason: s.stop.reason, StopDescription: s.stop.description,
		FrameName: s.stop.frameName, InstructionPointerReference: s.stop.ipRef, Source: s.stop.source,
		Line: s.stop.line, Column: s.stop.column,
		BreakpointFiles: len(s.breakpoints), BreakpointCount: count, FunctionBreakpointCount: len(s.functionBPs),
		OutputBytes: total, OutputTruncated: truncated, ExitCode: s.exitCode,
		NeedsConfigurationDone: s.needsConfigDone && !s.configDoneSent,
	}
}
