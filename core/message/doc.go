// Package message defines the agent-level messages that live in a
// conversation beside the provider roles of core/ai (user, assistant,
// toolResult), and the one conversion that turns a conversation into what a
// provider may see.
//
// The agent roles are the ones omp writes into session files:
//
//	custom             a message injected by an extension (session custom_message entries)
//	branchSummary      the summary of a branch the user navigated away from
//	compactionSummary  the summary that replaces the compacted start of a conversation
//	bashExecution      a shell command the user ran with "!" (and its output)
//	pythonExecution    Python code the user ran with "$" (and its output)
//	fileMention        files attached with "@path"
//
// Each type implements ai.Message and marshals to exactly the JSON omp
// writes (same field names, same order, absent optional fields left out), so
// a session written by either program loads in the other. Decode reads any
// message: the agent roles above become their types (the legacy role
// hookMessage becomes *Custom), the provider roles and unknown roles go
// through ai.UnmarshalMessage, which keeps an unknown role as an
// *ai.OpaqueMessage holding its JSON.
//
// ToLLM converts a conversation for a provider: provider roles pass through
// (with their attribution defaulted and pruned tool output reduced), custom
// messages become user messages with their content, summaries and command
// runs become user messages whose text says plainly what they are, and
// anything a provider cannot take (opaque roles, runs the user excluded from
// the context) is dropped.
package message
