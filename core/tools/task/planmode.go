package task

// planModeTools are the tools a subagent gets while the parent plans:
// looking only (omp's list, without the web search gopi does not have).
var planModeTools = []string{"read", "search", "find", "lsp"}

// planModePrompt comes before a subagent's own prompt while the parent
// plans: it explores and reports, and the parent keeps the plan.
const planModePrompt = "<critical>\nThe agent that started you is in plan mode, so you only look: do not create, change, delete, move or copy files, and run no command that changes state (no git commits, installs or builds that write).\n</critical>\n\n" +
	"Your part is to explore the code the assignment points at and report what you find; the agent that started you writes the plan. " +
	"Describe in your answer the changes the plan should contain, and end it with a section:\n\n" +
	"### Critical Files for Implementation\n\n" +
	"listing the 3-5 files that matter most for the change, each with a short reason (`path/to/file.go` — why).\n\n" +
	"<critical>\nStay read-only, and keep going until the assignment is done.\n</critical>"

// forPlanMode returns a, changed for a parent in plan mode: the looking
// tools only, no subagents of its own, and the plan-mode prompt first.
func forPlanMode(a *Agent) *Agent {
	c := *a
	c.Tools = planModeTools
	c.Spawns = nil
	c.Prompt = planModePrompt + "\n\n" + a.Prompt
	return &c
}
