// Package agent is gopi's agent loop: one run after another of
// context → provider stream → tool calls → results → next turn, until the
// model stops and no queued message is left.
//
// # Runs, turns and events
//
// A run starts with Prompt (new messages) or Continue (from the current
// context) and ends when the model answers without tool calls and the
// steering and follow-up queues are empty, or on an error or abort. A turn is
// one assistant response plus the results of the tools it called. Every step
// is an Event delivered synchronously, in order, to the subscribers:
//
//	agent_start
//	  turn_start{turnIndex,timestamp}
//	    message_start/end            the prompt and any queued messages
//	    message_start                the assistant message begins streaming
//	    message_update …             one per (merged) stream event, with the partial message
//	    message_end                  the final assistant message
//	    tool_execution_start/update/end   per call, as they happen
//	    message_start/end            each tool result, in call order
//	  turn_end{turnIndex,message,toolResults}
//	  … more turns …
//	agent_end{messages}
//
// The JSON form of every event is the object omp emits in --mode json and
// over RPC; front ends marshal events and never build them.
//
// # Queues and interrupts
//
// Steer queues a message for delivery before the next model call; FollowUp
// queues one for after the agent would otherwise stop. Each queue delivers
// one message per turn (one-at-a-time) or all at once (all). In the
// immediate interrupt mode a steering message that arrives while tools run
// stops the batch: calls not yet finished get a "skipped" result (finished
// results are kept) and the steer is delivered next. In the wait mode
// steering waits for the end of the turn.
//
// # Tools
//
// Calls of one assistant message are scheduled in order: shared tools run
// concurrently, an exclusive tool (edit, write, bash) waits for every earlier
// call and blocks every later one. Arguments are validated against the
// tool's schema first; validation errors, unknown tools, blocked calls,
// errors and panics all become tool results with isError, and the loop goes
// on. Tool results are appended in call order.
//
// # Abort, retry, forced tool choice, hooks
//
// Abort cancels the run's context: the stream ends with an assistant message
// whose stop reason is "aborted" and which keeps the partial content, and
// running tools see their context cancelled (non-abortable tools run on).
// A tool can end the run the same way by returning a tool.AbortRunError
// (the ask tool, when the user dismisses its question). Transient provider errors are retried with core/ai's backoff policy,
// announced by auto_retry_start / auto_retry_end. ForceToolChoice makes the
// next model call use one named tool (resolve after a preview); a response
// that does not call it puts the directive back. Hooks (hooks.go) see the
// context, tool calls, tool results and provider requests at the points the
// extension system needs; the same Hooks value carries the session-level
// compaction points, which the session runtime (core/agentsession) runs.
//
// # Stopping a response while it streams
//
// Options.Interrupter sees each stream event; when it answers with a
// StreamInterrupt the stream is cancelled (the run goes on), the stopped
// message ends as aborted and leaves the conversation unless kept, the
// interrupt's messages are added and the model is asked again in the same
// turn. The session's stream rules (TTSR, core/rules) use it.
package agent
