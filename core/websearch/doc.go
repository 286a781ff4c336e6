// Package websearch asks web search providers a query and turns their
// answers into one shape (Response) and the text the model reads (Text).
//
// Each provider speaks its own HTTP API (one file each): Tavily, Perplexity,
// Brave, Jina, Anthropic's server-side web search, Exa, Parallel, Kagi and
// SearXNG. They are tried in omp's order of preference (Order), the
// preferred provider (the providers.webSearch setting) first; a provider is
// usable when its key or endpoint is configured, and a failing provider
// hands the query to the next usable one. The credentials come from
// core/config (config.WebSearch); this package never reads the
// environment.
//
// Every request runs under three limits: connecting, waiting for the first
// byte of the answer, and silence while the answer arrives (Timeouts).
package websearch
