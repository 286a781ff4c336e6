// Package bedrock streams from Amazon Bedrock's ConverseStream API
// ("bedrock-converse-stream") over gopi's own transport.
//
// The JSON body is built here (wire.go) and goes through ai.NewRequest
// (the before_provider_request hook may replace it), is then signed with
// SigV4 by the AWS SDK's signer alone, or carries a Bedrock API key as a
// bearer token, and is sent with ai.Send (first-event and idle
// watchdogs). The answer is a binary AWS event stream, read with the
// SDK's event-stream decoder alone (frame lengths and CRCs checked). No
// other part of the AWS SDK is linked: its service clients and
// configuration loader cost start-up time and megabytes of binary.
//
// Configuration comes only from the getenv given to NewWithEnv (the model
// registry's injected lookup): region from AWS_REGION, then
// AWS_DEFAULT_REGION, then the profile, then us-east-1; credentials from a
// Bedrock API key (Request.APIKey or AWS_BEARER_TOKEN_BEDROCK), then
// AWS_BEDROCK_SKIP_AUTH's dummy keys, the profile named by AWS_PROFILE,
// static keys in the environment (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), then the default profile. A
// profile (shared config and credentials files, AWS_CONFIG_FILE and
// AWS_SHARED_CREDENTIALS_FILE or under HOME) gives static keys or a
// credential_process, run with a timeout and cached until shortly before
// its keys expire. SSO and assumed-role profiles, web identity and
// container credentials are refused with a one-line error naming the
// alternative (`aws configure export-credentials --format env`, or a
// credential_process); EC2 instance metadata is not asked. The session
// (region and credential source) lives in the Provider, reused while the
// environment stays the same. A model base URL that is not a public
// Bedrock endpoint (a proxy, a test server) or
// AWS_ENDPOINT_URL_BEDROCK_RUNTIME replaces the regional endpoint.
//
// The request: system prompt, messages (text, images as bytes, tool use
// and results with consecutive results in one user turn, reasoning
// replayed with its signature to Claude), tool specifications and choice,
// maxTokens and temperature, thinking in additionalModelRequestFields
// ({"thinking":{"type":"enabled","budget_tokens":N}}, or adaptive with an
// effort for Claude Opus 4.6 and later; none with a forced tool), and
// cache points after the system prompt and the last user turn for models
// with prompt caching (AWS_BEDROCK_FORCE_CACHE for other ids).
//
// The stream maps to the ai contract:
//
//	messageStart       → "start"
//	contentBlockStart  → toolcall_start (only tool use is announced)
//	contentBlockDelta  → text / thinking / toolcall deltas, opening the
//	                     block at its first delta; a reasoning signature
//	                     extends the signature, redacted reasoning is kept
//	                     base64-encoded as the redacted block's signature
//	contentBlockStop   → the block's end
//	messageStop        → stop reason
//	metadata           → usage (input, output, cache read and write)
//	exception messages → error
//
// Stop reasons: end_turn and stop_sequence → stop; max_tokens and
// model_context_window_exceeded → length; tool_use → toolUse;
// guardrail_intervened, content_filtered and malformed output → error.
// A refused request becomes an *ai.HTTPError ("HTTP 429 …:
// ThrottlingException: …"); a model the region does not offer a
// *ModelUnavailableError naming model, region and the fix; missing
// credentials a *CredentialsError naming the variables to set.
package bedrock
