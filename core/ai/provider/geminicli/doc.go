// Package geminicli is the "google-gemini-cli" provider: Google's Cloud
// Code Assist API, which serves the google-gemini-cli (Gemini CLI sign-in)
// and google-antigravity (Antigravity sign-in) providers.
//
// A request is
//
//	POST {host}/v1internal:streamGenerateContent?alt=sse
//	Authorization: Bearer <access token>
//	{"project": "<project id>", "model": "<model id>", "request": {…generateContent body…}}
//
// and every SSE chunk is {"response": {…GenerateContentResponse…},
// "traceId": "…"}; the body is built and the chunks decoded by
// core/ai/provider/google. The request's API key is the JSON a Google
// sign-in stores ({"token", "projectId", "refreshToken", "expiresAt"}:
// Credentials); the credential store refreshes it before it expires, and
// this provider refuses to send a token it can see has expired.
//
// The host is the model's base URL; without one, Gemini CLI uses
// cloudcode-pa.googleapis.com and Antigravity tries
// daily-cloudcode-pa.googleapis.com, then
// daily-cloudcode-pa.sandbox.googleapis.com when the first fails before
// streaming with a 429 (other than an exhausted quota), a 5xx or a network
// error. A 429 whose message speaks of quota or exhaustion becomes a
// QuotaError, which the session does not retry; other errors keep the
// retry hint the service gave (x-ratelimit-reset, x-ratelimit-reset-after,
// RetryInfo, or the body's "reset after 1h2m3s" / "Please retry in 2s"
// text) so the session's retry waits as long as asked. A reply without any
// part is sent again twice (after 0.5 s, then 1 s) before it is an error.
//
// Headers: Gemini CLI's User-Agent "GeminiCLI/<version>/<model> (<platform>;
// <arch>; terminal)" and Client-Metadata; Antigravity's User-Agent
// "antigravity/<version> <os>/<arch>", plus anthropic-beta
// interleaved-thinking for its reasoning Claude models. The versions come
// from Settings (PI_AI_GEMINI_CLI_VERSION, PI_AI_ANTIGRAVITY_VERSION).
//
// What differs from the Gemini API's body: no thinkingConfig when thinking
// is off, thinking levels in upper case, a thinking budget that fits under
// the output limit; earlier replies' thinking replayed only for the same
// provider and model; Claude models get call ids on functionCall and
// functionResponse and their tool schemas under "parameters", reduced to
// what Code Assist accepts (schema.go). Antigravity also gets a sessionId
// derived from the first user text, requestType "agent", userAgent
// "antigravity" and a requestId; for Claude, toolConfig mode VALIDATED and
// the Antigravity identity before the system prompt (also for Gemini 3 Pro
// High); for other models no maxOutputTokens.
package geminicli
