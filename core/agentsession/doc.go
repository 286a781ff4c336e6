// Package agentsession is the session runtime: the one object that owns a
// conversation — its session file (core/session), the agent loop
// (core/agent), the model and its credentials, the settings, the tools and
// the hooks — and that every front end drives. Print mode, JSON mode, RPC,
// the TUI and Go programs embedding gopi (package sdk) all call the same
// methods and subscribe to the same events.
//
// # Parts
//
// A Session composes parts, each owning its state and its lock and taking
// narrow dependencies (the store through a getter, the agent loop, the
// event emitter, or a small host interface naming what it calls back):
//
//   - Turn (Session.Turn): who works on the conversation — the turn a
//     prompt or compaction holds, the closed state, the abort generation,
//     the messages kept for the next prompt; Steer, FollowUp, WaitIdle,
//     IsBusy.
//   - ModelState (Session.Model): the model and thinking level, cycling,
//     credentials, and what the session file last recorded of them.
//   - Tree (Session.Tree): moves in the session tree and between files —
//     Navigate with its branch summary, Branch, New, Switch, labels, rows.
//   - Compactor (Session.Compactor): manual, threshold, overflow and idle
//     compaction, pruning, context promotion, Handoff; the compactions in
//     progress and the token counter.
//   - Shell (Session.Shell): the user's own "!cmd" commands and the
//     executions waiting for a run to end.
//   - Resources (Session.Resources): skills, rules, templates, MCP servers
//     and the problems found discovering them.
//   - PlanMode (Session.Plan): plan mode — the plan role's model, the
//     file tools limited to the plan file (local://PLAN.md), the planning
//     instructions sent with each prompt, and the review of the plan
//     exit_plan_mode hands over (approve, refine, stay) through the UI.
//   - Tools (Session.Tools): the tools offered to the model (built-ins,
//     extra, extension and MCP tools, an active set), their environment and
//     services, the UI they ask through, the todo plan and the count of
//     background jobs.
//
// The Session itself keeps the life cycle (New, Close), the prompt
// (Prompt, SendCustomMessage, Abort), the events (Subscribe), the store,
// the delivery of finished background jobs and the wait for them
// (jobs.go, WaitJobs) and subagents (child.go). Front ends do
// not take *Session: each mode declares the interface it uses next to
// itself (printmode.Session, rpc.Session, acp.Session, tui.Session), and
// package sdk offers embedders a chosen surface over it.
//
// # Life of a prompt
//
// Prompt checks that a model with credentials is selected, adds the user's
// message (with images and any messages queued for the next turn) and runs
// the loop until the model is done. While a run is in progress a prompt
// must say how to deliver it (steer or follow-up) or it fails with
// agent.ErrBusy. Every message the loop completes is appended to the
// session file as it ends; the file itself is created with the first
// assistant message. A failure to write the session is latched: Prompt
// returns it, and so does every later call, so nothing is lost silently.
//
// # Model and settings
//
// The model is, in order: the one given in Options, the one the session
// was using (when it still has credentials), the settings' default role,
// the first model with credentials. Model and thinking-level changes are
// recorded in the session file so a resumed session continues with them.
//
// # The session tree
//
// Tree.Navigate moves the leaf within the session file (/tree), optionally
// storing a model-written summary of the branch it leaves; Tree.Branch
// starts a new file from a user message (/branch); Compactor.Handoff
// continues in a new session from a document the model writes about the
// work; Tree.New and Tree.Switch replace the session. These wait for the
// work after a run and fail with ErrWorking while a run streams; a failure or an abort
// leaves the session as it was. Extensions see and may veto them through
// the session hook points of agent.Hooks.
//
// # Skills, rules and prompt templates
//
// New discovers the skills (core/skills), rules (core/rules) and prompt
// templates (core/templates) of the working directory once; subagents
// reuse the parent's. The system prompt lists the skills and the rulebook
// and carries the always-apply rules; the read tool (and search and bash)
// resolve skill:// and rule:// through the session. Prompt expands
// "/skill:<name> [text]" into a custom message with the skill's text and
// "/<template> args" into the filled-in template. Stream rules watch each
// response through the agent's interrupter: a match stops the response,
// adds the rule (a hidden custom message, stored with a ttsr_injection
// entry, announced by a ttsr_triggered event) and asks again, or adds the
// rule after the turn when the rule's interrupt mode says not to stop.
//
// # Permissions
//
// New builds the session's permission gate (core/permission) from
// Options.Permissions and runs it as the last tool_call hook, after the
// extensions' own; NewChild hands the same gate to every subagent, so one
// policy, one line of questions and one set of "always" answers serve the
// whole tree of agents, each question naming the subagent that asks. The
// questions go to the mode's asker (ACP's editor) or to the UI SetUI
// gives (RPC's host, the terminal). Replacing the session (Tree.New,
// Tree.Switch, Tree.Branch) forgets the "always" answers.
package agentsession
