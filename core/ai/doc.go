// Package ai is gopi's message model and the one streaming contract every LLM
// provider implements.
//
// # Message model
//
// A conversation is a list of Message values: *UserMessage, *AssistantMessage
// and *ToolResultMessage. Their content is a list of blocks (*TextContent,
// *ThinkingContent, *ImageContent, *ToolCall). The JSON form of every type is
// the one sessions persist: {"role":"assistant","content":[{"type":"text",…}],…}.
//
// # Streaming contract
//
// A Provider turns a Request into a *Stream of Events: "start", then for each
// content index a start/delta…/end triple (text, thinking or toolcall), then
// exactly one terminal "done" (stop, length, toolUse) or "error" (error,
// aborted). A request that fails before the response starts (HTTP error,
// refused connection, missing provider) produces a lone "error" event with
// no "start". Stream.Result returns the final AssistantMessage once the
// terminal event has been pushed. Providers produce events through an
// Emitter, which keeps the partial message, parses streamed tool-call
// arguments (ParseStreamingJSON) once per delivered event and at
// toolcall_end, turns a context cancellation into an "error" event with
// stop reason "aborted", and estimates the usage (EstimateUsage, marked
// Usage.Estimated) when a server reports none.
//
// Every non-terminal event carries Partial, a snapshot of the message as of
// that event, taken once per event when it is sealed (when a later event is
// queued or when Next returns it), never once per delta.
//
// Deltas are throttled: a delta waits up to DeltaInterval (50 ms) and is
// merged with following deltas of the same type and content index, and it
// keeps merging them for as long as the consumer has not read it; any other
// event flushes it first, so consumers always see deltas before the event
// that closes their block. There is no backpressure: producers never wait
// for consumers, and a slow consumer costs memory for about one event per
// block boundary, not one per delta.
//
// # Transport: our own SSE client, not the vendor SDKs
//
// Providers speak HTTP through Post (transport.go) and read server-sent
// events through ReadEvents (events.go, over package core/ai/sse: one read
// loop with its limits and end-of-stream errors for all of them) instead
// of using anthropic-sdk-go, openai-go or google.golang.org/genai. The hooks need to see and replace the
// exact JSON body before it is sent (before_provider_request) and to read the
// response status and headers before the body is consumed
// (after_provider_response), each tagged with the request id. The SDKs build
// their body from typed parameters and hide the raw response behind
// middleware options that differ per SDK; with our own client the payload is
// a plain JSON value the hook can swap, every provider shares one code path
// for hooks, headers, errors and retry-after parsing, and the binary carries
// no three large SDK dependency trees. The wire formats we need are small
// and stable (a handful of SSE event kinds each) and are covered by golden
// tests against internal/mockllm.
//
// # Registration
//
// Provider packages register a constructor for their API kind with
// RegisterAPI in an init function; NewProvider builds one by API kind and
// StreamRequest dispatches a Request by its model's API.
package ai
