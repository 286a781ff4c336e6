// Package google is the "google-generative-ai" provider: Gemini's
// streamGenerateContent with "?alt=sse", over our own SSE client
// (core/ai/sse; see core/ai's package doc for why not google.golang.org/genai).
//
// A request is POST {baseURL}/models/{model}:streamGenerateContent?alt=sse
// with the key in the x-goog-api-key header. Each SSE chunk is a
// GenerateContentResponse: the first candidate's content parts are walked in
// order — a text part with "thought": true continues or opens a thinking
// block, another text part a text block (a change of kind closes the open
// block first); a functionCall part is a whole call, emitted at once as
// toolcall_start, one toolcall_delta holding the arguments as JSON, and
// toolcall_end. Gemini gives calls no id (or an optional one), so a missing
// id becomes "<name>_<request id>_<n>". Thought signatures on text parts go
// to the block's signature.
//
// finishReason STOP maps to stop (toolUse when the reply calls a function),
// MAX_TOKENS to length, and every other reason (SAFETY, RECITATION,
// PROHIBITED_CONTENT, BLOCKLIST, SPII, MALFORMED_FUNCTION_CALL, …) to error
// with the reason in the message; a blocked prompt (promptFeedback
// .blockReason) is an error too. usageMetadata maps promptTokenCount minus
// cachedContentTokenCount to input, cachedContentTokenCount to cacheRead and
// candidatesTokenCount plus thoughtsTokenCount to output.
//
// Vertex AI and Cloud Code Assist (Gemini CLI, Antigravity) carry the same
// body and chunks, so the pieces are exported for their packages
// (core/ai/provider/vertex, core/ai/provider/geminicli): BuildPayload with
// PayloadOptions for their differences, Run and Decoder for one exchange
// (NewEnvelopeDecoder reads Code Assist's wrapped chunks in one pass), and
// WithRetryInfo / WithRetryHint for the retry delay of error responses.
package google
