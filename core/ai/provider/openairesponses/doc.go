// Package openairesponses is the "openai-responses" provider: the OpenAI
// Responses API with "stream": true, over our own SSE client (core/ai/sse,
// see core/ai's package doc for why not openai-go).
//
// Requests are stateless ("store": false): the whole conversation is sent
// as input items every time, and reasoning is requested with
// "include": ["reasoning.encrypted_content"] so that it can be replayed.
//
// Event mapping: response.output_item.added opens a block per output item —
// reasoning → thinking, message → text, function_call → tool call;
// response.reasoning_summary_text.delta → thinking_delta (summary parts are
// separated by a blank line); response.output_text.delta and
// response.refusal.delta → text_delta; response.function_call_arguments.delta
// → toolcall_delta (…arguments.done and the finished item also set the
// complete arguments, for servers that send no deltas);
// response.output_item.done closes the block. A finished reasoning item is
// kept whole, as JSON, in the thinking signature and sent back verbatim on
// the next request; a message item's id becomes the text signature.
//
// Tool call ids are "<call_id>|<item_id>": the call id pairs the call with
// its function_call_output, the item id names the function_call item when
// the call is replayed.
//
// The terminal response.completed / response.incomplete / response.failed
// (or response.done, the ChatGPT backend's name for the end) maps status completed → stop (toolUse when the reply calls a tool),
// incomplete → length (error when incomplete_details.reason is
// content_filter: the API's safety stop), failed and cancelled → error. A
// refusal is a refusal content part of a completed response, so it streams
// as text and ends with stop, as in the reference implementation; usage maps
// input_tokens minus cached tokens to input, cached tokens to cacheRead and
// output_tokens to output. An "error" event ends the stream with an error.
//
// The Responses-family providers (openaicodex for the ChatGPT backend,
// azureopenai for Azure OpenAI) share this package's request building
// (BuildPayload, ConvertInput, Tools, ToolChoice, PromptCacheKey), its event decoding
// (Decoder) and its stream driver (Start, Exchange); each adds only its
// URL, headers, payload changes and error shapes.
package openairesponses
