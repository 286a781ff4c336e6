// Package bedrock streams from Amazon Bedrock's ConverseStream API
// ("bedrock-converse-stream") with the official AWS SDK for Go v2.
//
// Unlike the other providers it does not build its own HTTP request: the
// SDK serializes the typed input, resolves the endpoint, and signs with
// SigV4 (or sends a Bedrock API key as a bearer token), and its answer is
// a binary AWS event stream, not server-sent events. The provider plugs
// into the SDK at three points so it behaves like the others: an
// after-serialization interceptor runs the before_provider_request hook
// on the exact JSON body (its replacement is what gets signed and sent),
// the SDK's HTTP client is an adapter over ai.Send (first-event and idle
// watchdogs, the after_provider_response hook), and the SDK's retryer is
// off, because the agent retries whole messages.
//
// Configuration comes only from the getenv given to NewWithEnv (the model
// registry's injected lookup), passed to the SDK explicitly: region from AWS_REGION, then
// AWS_DEFAULT_REGION, then the profile, then us-east-1; credentials from
// a Bedrock API key (Request.APIKey or AWS_BEARER_TOKEN_BEDROCK), then
// AWS_BEDROCK_SKIP_AUTH's dummy keys, AWS_PROFILE (the SDK's shared-config
// chain: static keys, SSO, assumed roles, credential_process), static keys
// in the environment, web identity, container credentials, the default
// profile, and EC2 instance metadata only when AWS_EC2_METADATA_DISABLED
// is "false" (off by default: off EC2 it costs seconds per failed
// request). The SDK itself still reads a few process variables this list
// does not cover (for example AWS_CA_BUNDLE). The loaded session and its
// credentials cache live in the Provider, reused while the environment
// stays the same. A model base URL that is not a public Bedrock endpoint
// (a proxy, a test server) or AWS_ENDPOINT_URL_BEDROCK_RUNTIME replaces
// the endpoint.
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
