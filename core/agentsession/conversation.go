package agentsession

// Conversation is what the user asks of the conversation besides a
// prompt: the last turn sent again (Retry), a side question that leaves
// no trace (SideQuestion), what fills the context window (ContextUsage),
// the session's spending per model (UsageByModel) and the transcript as
// Markdown (Text). The interactive mode's /retry, /btw, /context, /usage
// and /dump use it.
type Conversation struct{ s *Session }

// Conversation returns the session's conversation commands.
func (s *Session) Conversation() *Conversation { return &Conversation{s} }
