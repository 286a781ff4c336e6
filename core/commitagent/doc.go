// Package commitagent is `gopi commit`'s default mode, omp's agentic
// commit: a small agent session (core/agentsession, on the smol model)
// that inspects the staged changes through git tools and answers with
// either one commit or a split into several, plus the changelog entries
// of the CHANGELOG.md files the change touches. The mode then applies the
// answer:
//
//   - one commit: `git commit` of the index, as it is;
//   - a split: each group's part of the staged diff committed in
//     dependency order (commitgen.Order) through a temporary index
//     (commitgen.Repo.ApplySplit), so the repository's index and work tree
//     are never rewritten and an interruption leaves HEAD at a commit
//     boundary with the rest still staged.
//
// Before the agent: a change of only blank lines or import lines is
// committed with a fixed style message (commitgen.Trivial). After it:
// when the session fails, or ends without a proposal after three
// reminders, a message is made from the file names (commitgen.Fallback)
// and a line says so.
//
// The tools (tools.go and tool_*.go) write the model's answers into a
// State; proposals go through commitgen.CheckProposal and a refused one
// is answered with its errors, so the model corrects it in the same
// session.
package commitagent
