// Package toolsearch is tool discovery: the search_tool_bm25 tool and the
// BM25 index it searches.
//
// With tools.discoveryMode set (mcp-only or all) a session hides its MCP
// tools, and in "all" mode its non-essential built-ins too, so the request
// it sends stays small however many servers are configured. The model
// calls search_tool_bm25 with a few keywords; the best matches are
// activated and offered from the next model call on. Ranking is BM25+
// (k1 1.2, b 0.75, delta 1) over weighted fields: name 6, label 4, the
// MCP tool name 4, server 2, summary 2, each input property 1.
//
// The session owns the hidden set and what has been activated; it reaches
// this package through the Host interface.
package toolsearch
