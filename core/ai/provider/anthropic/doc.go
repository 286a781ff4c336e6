// Package anthropic streams from the Anthropic Messages API
// ("anthropic-messages") over server-sent events.
//
// It uses our own HTTP/SSE client (ai.Post and core/ai/sse), not
// anthropic-sdk-go: the before/after provider hooks must see and be able to
// replace the exact JSON payload and read the response status and headers,
// which the SDK's typed parameters and middleware hide; core/ai's package
// doc gives the full reasoning, shared by all four providers.
//
// It converts the message model to Messages API JSON (thinking blocks with
// their signatures, redacted thinking, images, tool use and tool results,
// prompt-cache marks on the system prompt, the last tool and the last user
// turn), sends it through ai.Post (so the request hooks see the exact
// payload) and maps the SSE events to the ai streaming contract:
//
//	message_start        → usage, response id, "start"
//	content_block_start  → text_start / thinking_start / toolcall_start
//	content_block_delta  → text_delta / thinking_delta / toolcall_delta;
//	                       signature_delta only extends the signature
//	content_block_stop   → text_end / thinking_end / toolcall_end
//	message_delta        → stop reason and final usage
//	message_stop         → done (or error for refusal-type stops)
//	error                → error
//
// Stop reasons: end_turn, stop_sequence and pause_turn → stop; max_tokens →
// length; tool_use → toolUse; refusal, sensitive and
// model_context_window_exceeded → error. Credentials: an OAuth token
// (sk-ant-oat…, from ANTHROPIC_OAUTH_TOKEN) is sent as a bearer token with
// the OAuth beta header; anything else as x-api-key.
package anthropic
