package agentsession

import (
	"fmt"
	"strings"
)

// Custom types of the hidden messages plan mode adds.
const (
	// PlanContextType is the instructions that come with every prompt
	// while plan mode is on.
	PlanContextType = "plan-mode-context"
	// PlanReferenceType is a plan found in the session's scratch
	// directory, sent with the first prompt outside plan mode.
	PlanReferenceType = "plan-mode-reference"
)

// planContextText is what the model is told with every prompt while
// planning: stay read-only, keep the plan in file, and end each turn with
// ask or exit_plan_mode.
func planContextText(file string, exists, reentry bool) string {
	var b strings.Builder
	b.WriteString("<critical>\nYou are in plan mode: only look, do not change anything.\n")
	b.WriteString("- Do not create, change or delete files; the plan file below is the one exception.\n")
	b.WriteString("- Do not run commands that change state (installs, commits, builds that write, migrations).\n")
	b.WriteString("- When the plan is ready, call `exit_plan_mode` yourself; the user then approves it and every tool becomes available again. Do not ask the user to leave plan mode for you.\n</critical>\n\n")
	b.WriteString("## Plan file\n\n")
	if exists {
		fmt.Fprintf(&b, "The plan file `%s` already exists: read it and keep it up to date as you learn more.\n", file)
	} else {
		fmt.Fprintf(&b, "Write the plan to `%s`.\n", file)
	}
	b.WriteString("Change it piece by piece with `edit`; use `write` only to create it or to replace it whole.\n\n")
	b.WriteString("When the plan is presented, the user may approve it and run it in a fresh context (the conversation is cleared) or keep this conversation. ")
	b.WriteString("Either way the file must stand on its own: requirements, decisions, what you found, and what remains to do.\n")
	if reentry {
		b.WriteString("\n## Planning again\n\nRead the existing plan first. If the request is a different task, replace the plan; if it continues the same one, update it and drop what is out of date.\n")
	}
	b.WriteString("\n## How to plan\n\n")
	b.WriteString("1. Understand: read the code the request touches (`find`, `search`, `read`); explore independent areas in parallel when that helps.\n")
	b.WriteString("2. Design: choose one approach after weighing the alternatives briefly.\n")
	b.WriteString("3. Check: reread the critical files and make sure the plan answers the request; use `ask` for what only the user can decide.\n")
	fmt.Fprintf(&b, "4. Write `%s`: the chosen approach, the paths of the files to change, and how to verify the result end to end.\n\n", file)
	b.WriteString("Use `ask` only to clarify requirements or to choose between approaches, never to get the plan approved.\n\n")
	b.WriteString("<critical>\nEnd every turn with a tool call: `ask` when you need the user's input, or `exit_plan_mode` when the plan is complete. Keep going until one of them applies.\n</critical>")
	return b.String()
}

// planReferenceText presents a plan left from earlier planning.
func planReferenceText(file, content string) string {
	return fmt.Sprintf("## A plan from earlier\n\nThe plan file `%s` was written in an earlier part of this session:\n\n<details>\n<summary>The plan</summary>\n\n%s\n</details>\n\n"+
		"<instruction>\nIf it belongs to the current work and is not finished, carry on with it. If it is out of date or about something else, ignore it.\n</instruction>", file, content)
}

// planReminderText is sent when a planning turn ended in plain text: the
// model must ask or hand the plan over.
const planReminderText = "<system-reminder>\nThis plan mode turn ended without the tool call it needs.\n\n" +
	"Pick one next step now:\n1. call `ask` to get the clarification you need, or\n2. call `exit_plan_mode` to finish planning and ask for approval.\n\n" +
	"Do not answer with plain text this time.\n</system-reminder>"

// planApprovedText is the message that starts the execution of an
// approved plan.
func planApprovedText(finalFile, content string, keptContext, todos bool) string {
	var b strings.Builder
	b.WriteString("<critical>\nThe plan is approved. Carry it out now.\n</critical>\n\n")
	fmt.Fprintf(&b, "Approved plan: `%s`\n", finalFile)
	if keptContext {
		b.WriteString("The conversation so far is kept and may help; where it disagrees with the plan, the plan wins.\n")
	} else {
		b.WriteString("This may be a fresh context: the plan is what counts.\n")
	}
	b.WriteString("\n## Plan\n\n")
	b.WriteString(content)
	b.WriteString("\n\n<instruction>\n")
	fmt.Fprintf(&b, "Work through `%s` step by step with every tool available; check each step before the next.\n", finalFile)
	if todos {
		b.WriteString("Start by putting the steps into `todo_write`, and update it as each step is done (if a call fails, fix it and call again).\n")
	}
	b.WriteString("</instruction>\n\n<critical>\nKeep going until the plan is done.\n</critical>")
	return b.String()
}
