// Package openaicodex is the "openai-codex-responses" provider: the
// Responses API of the ChatGPT backend (https://chatgpt.com/backend-api),
// which a ChatGPT Plus/Pro/Team subscription reaches after the ChatGPT
// sign-in (`gopi login openai-codex`, or OPENAI_CODEX_OAUTH_TOKEN). The
// credential is the sign-in's OAuth access token, a JWT.
//
// The wire is the OpenAI Responses event stream, decoded by
// openairesponses.Decoder; what differs is around it:
//
//   - URL: <base>/codex/responses (a base already ending in /codex or
//     /codex/responses is kept).
//   - Headers: Authorization: Bearer <token>; chatgpt-account-id, the
//     chatgpt_account_id of the token's "https://api.openai.com/auth"
//     claim (AccountID; a token without one is refused before sending);
//     OpenAI-Beta: responses=experimental; originator: pi; session_id and
//     conversation_id carrying the prompt-cache key when the request has a
//     session.
//   - Body: the system prompt travels as "instructions", not as an input
//     item; "store" is false; item ids are left out of replayed input (the
//     backend keeps nothing, so it cannot resolve them); a tool output
//     whose call is not in the input becomes assistant text, since the
//     backend refuses unpaired outputs; "include" always asks for
//     reasoning.encrypted_content so reasoning replays; "text.verbosity" is
//     "low"; the reasoning effort is the thinking level as is (the model
//     registry clamps it to what the model supports) with summary "auto";
//     max_output_tokens is not sent (the backend rejects it).
//   - Errors: a 429 whose error code is usage_limit_reached or
//     usage_not_included is a *UsageLimitError, not retried (the
//     subscription's quota is spent until it resets; the x-codex-primary-*
//     and x-codex-secondary-* headers and the error's resets_at say
//     when); other 429s say when the window resets and stay retryable;
//     401 and 403 say to sign in again.
//
// Stop reasons and usage are those of the Responses API (see
// openairesponses): completed → stop (toolUse with tool calls),
// incomplete → length, failed and cancelled → error; input counts
// uncached tokens, cacheRead the cached ones.
//
// Not implemented: omp's WebSocket transport (PI_CODEX_WEBSOCKET*; requests
// always use SSE, which omp falls back to) and the in-provider retries of
// omp (gopi retries whole messages, ai.Retry).
package openaicodex
