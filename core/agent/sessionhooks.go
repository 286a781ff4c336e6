package agent

// The payloads of the session file hook points (Hooks.SessionBeforeBranch,
// SessionBranch, SessionBeforeSwitch and SessionSwitch; omp's
// session_before_branch, session_branch, session_before_switch and
// session_switch).

// Reasons of a session switch (SwitchEvent.Reason).
const (
	SwitchNew    = "new"    // a new, empty session
	SwitchResume = "resume" // another session file
	SwitchFork   = "fork"   // a copy of the whole session
)

// BeforeBranchEvent is offered before /branch starts a session file from
// an earlier user message.
type BeforeBranchEvent struct {
	EntryID string // the user message branched from
}

// BeforeBranchResult is a SessionBeforeBranch hook's answer; nil or the
// zero value lets the branch go ahead.
type BeforeBranchResult struct {
	Cancel bool // stop: no file is created and nothing changes
	// SkipConversationRestore creates the new session file but leaves the
	// conversation the model sees as it is (a hook that restores state
	// its own way, such as a checkpoint of the working tree).
	SkipConversationRestore bool
}

// BranchEvent reports a /branch.
type BranchEvent struct {
	PreviousSessionFile string // the session branched from ("" in memory)
}

// BeforeSwitchEvent is offered before the session is replaced by another.
type BeforeSwitchEvent struct {
	Reason            string // SwitchNew, SwitchResume or SwitchFork
	TargetSessionFile string // the file switched to (SwitchResume)
}

// BeforeSwitchResult is a SessionBeforeSwitch hook's answer; nil or the
// zero value lets the switch go ahead.
type BeforeSwitchResult struct {
	Cancel bool // stop: the session stays as it is
}

// SwitchEvent reports a switch to another session.
type SwitchEvent struct {
	Reason              string // as in BeforeSwitchEvent
	PreviousSessionFile string // the session left ("" in memory)
}

// InputEvent reports a prompt as the user sent it.
type InputEvent struct {
	Text   string // the prompt's text
	Images int    // how many images came with it
}

// UserBashEvent is offered before a user's shell command runs.
type UserBashEvent struct {
	Command            string // the command line
	ExcludeFromContext bool   // "!!cmd": the model will not see it
	Cwd                string // where it would run
}

// UserBashResult is a UserBash hook's answer: the command's outcome in
// place of running it.
type UserBashResult struct {
	Output    string // the output shown and recorded
	ExitCode  *int   // nil when the command did not finish
	Cancelled bool   // it was aborted
	Truncated bool   // Output is the tail of a longer output
}
