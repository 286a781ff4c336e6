// Package mockllm is a scripted, in-process LLM server for tests and
// debugging. It speaks the streaming wire formats gopi's providers
// consume, so a provider, the agent loop or a whole session can be exercised
// end to end without a network:
//
//   - Anthropic Messages:        POST …/messages             (SSE with named events)
//   - OpenAI Chat Completions:   POST …/chat/completions     (SSE data chunks, "[DONE]")
//   - OpenAI Responses:          POST …/responses            (SSE with named events)
//   - Gemini generateContent:    POST …/models/M:streamGenerateContent?alt=sse
//   - Vertex AI:                 POST …/v1/projects/P/locations/L/publishers/google/models/M:streamGenerateContent?alt=sse
//     (bearer token required; the express path …/v1/publishers/google/models/M:… takes x-goog-api-key)
//   - Cloud Code Assist:         POST …/v1internal:streamGenerateContent?alt=sse (bearer token; the
//     {"project","model","request"} envelope in, {"response":…,"traceId":…} chunks out)
//   - Bedrock ConverseStream:    POST …/model/M/converse-stream   (binary AWS event stream)
//
// The request path decides the format, so any base URL prefix works
// (http://HOST/v1/messages, http://HOST/anthropic/v1/messages, …).
// Two services that speak the Responses format are recognised by their
// paths and checked the way they check requests, before a turn is played:
// the ChatGPT backend (…/codex/responses: its headers, a JWT access token
// naming the account, store false; codex.go) and Azure OpenAI (paths under
// /openai/, the v1 surface or /openai/deployments/<name>/…: api-version,
// api-key or bearer, known deployments; azure.go).
//
// A server plays a script: every request consumes the next Turn, whatever its
// format, and the turn is rendered in the format the request asked for. A
// turn with Match is kept for a request whose body contains that text, so
// parallel requests (subagents) can be scripted by what they ask. A
// turn describes the assistant's reply as a list of blocks (text, thinking,
// tool calls with JSON arguments) plus how it ends (stop, length, tool use,
// refusal) and its token usage (or none at all, as some compatible servers
// report, with NoUsage); or a failure: an HTTP error status with an
// optional retry-after (Overflow is the one a context overflow gets), an
// error event inside the stream, a connection cut
// after N frames, or a stall that lasts until the client gives up. Chunk size
// and a delay between frames control how the reply trickles out. Every request
// (method, path, query, headers, body) is recorded for assertions.
//
// Wire output follows what the real services send: event names, field names
// and ordering (message_start, ping, content_block_* … message_delta,
// message_stop for Anthropic; a role chunk, content/tool-call deltas, a
// finish_reason chunk, a usage chunk only when stream_options.include_usage is
// set (and the turn has usage), then "data: [DONE]" for Chat Completions; response.created …
// response.output_item.added/done, content parts, reasoning summary parts and
// response.completed/incomplete/failed with sequence numbers for Responses;
// candidate chunks with parts, thought parts and whole functionCall parts,
// finishReason and usageMetadata for Gemini; binary event-stream messages
// messageStart, contentBlockStart (tool use only) / contentBlockDelta /
// contentBlockStop, messageStop and metadata for Bedrock, with exceptions
// as exception messages and HTTP errors named by x-amzn-ErrorType). Ids are deterministic (derived
// from the request number and block index) so golden files stay stable.
//
// From Go tests:
//
//	srv := mockllm.New(t)
//	srv.Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("hello")}})
//	… point a provider at srv.URL() …
//	reqs := srv.Requests()
//
// From the command line, `gopi mockllm --script FILE` serves a script file
// (see ParseScript for the JSON format) through an Endpoint and prints
// its URL; WriteRecord keeps its requests.
package mockllm
