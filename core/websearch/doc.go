// Package websearch asks web search providers a query and turns their
// answers into one shape (Response) and the text the model reads (Text).
//
// Each provider speaks its own HTTP API (one file each): Tavily, Perplexity
// (its API, or its web app with cookies or a sign-in), Brave, Jina, Kimi,
// Anthropic's server-side web search, Gemini's Google Search grounding (a
// Google sign-in), Codex's Responses web search, Z.AI's MCP server, Exa
// (its API, or without a key its public MCP server), Parallel, Kagi,
// Synthetic and SearXNG. They are tried in omp's order of preference
// (Order), the preferred provider (the providers.webSearch setting) first;
// a provider is usable when its key, endpoint or sign-in is there (Exa
// unless turned off), and a failing provider hands the query to the next
// usable one. The credentials come from
// core/config (config.WebSearch); this package never reads the
// environment.
//
// Every request runs under three limits: connecting, waiting for the first
// byte of the answer, and silence while the answer arrives (Timeouts).
package websearch
