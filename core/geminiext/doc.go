// Package geminiext finds Gemini CLI manifest extensions: a directory
// under ~/.gemini/extensions or <cwd>/.gemini/extensions holding a
// gemini-extension.json. Only direct child directories count (hidden ones
// too); a missing or unreadable manifest is skipped without a word, and a
// manifest that is not JSON is skipped with a warning. The project root is
// the working directory itself, never an ancestor. Names come from the
// manifest's "name", else the directory; on a duplicate name the user's
// extension wins, as the reference orders user before project.
//
// A manifest contributes three things to a session: its MCP servers
// (mcpServers, with ${extensionPath} and ${/} substituted as Gemini CLI
// does), context files put into the system prompt (contextFileName, a
// name or a list, relative to the extension; GEMINI.md when it names
// none), and tools to leave out of the session (excludeTools, by gopi
// name, Gemini CLI's built-in name or an MCP tool's own name). The package
// only reads files; the session decides what to start and offer.
package geminiext
