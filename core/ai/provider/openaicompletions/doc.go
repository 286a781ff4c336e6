// Package openaicompletions is the "openai-completions" provider: the OpenAI
// Chat Completions streaming API, and the many servers that copy it (Ollama,
// LM Studio, llama.cpp, vLLM, OpenRouter, Groq, xAI, DeepSeek, Mistral,
// Together, Fireworks, Cerebras — see Presets).
//
// A request is POST {baseURL}/chat/completions with "stream": true and
// "stream_options": {"include_usage": true} (where the server accepts it),
// sent through ai.Post so the before/after hooks see the payload, status and
// headers. The reply is a server-sent-event stream of chunks, decoded with
// core/ai/sse as core/ai's package doc explains (our own SSE client rather
// than openai-go, so the raw payload stays replaceable).
//
// Chunk mapping: delta.content (and delta.refusal) → text blocks;
// delta.reasoning_content / delta.reasoning / delta.reasoning_text (the
// fields compatible servers use for thinking) → thinking blocks;
// delta.tool_calls → one tool-call block per tool index, argument text
// appended (ai.Emitter parses it). A change of kind closes the open
// block first. finish_reason maps stop → stop, length → length,
// tool_calls/function_call → toolUse, content_filter → error; a stop with
// tool calls is toolUse. The usage chunk maps prompt_tokens minus cached
// tokens to input, cached tokens to cacheRead and completion_tokens
// (reasoning included) to output (Groq's x_groq.usage, a usage inside the
// choice and DeepSeek's prompt_cache_hit_tokens are read too). A stream
// without usage falls back to llama.cpp's "timings" (prompt_n, cache_n,
// predicted_n) when present, else ai.Emitter estimates the usage and marks
// it estimated. A server that rejects stream_options is configured with
// compat supportsUsageInStreaming: false (Cerebras by default).
//
// Server quirks are described by Compat, resolved from the preset of the
// model's provider and then from the model's "compat" map (models.yml).
package openaicompletions
