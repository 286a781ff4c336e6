package lsp

import (
	"path/filepath"
	"strings"
)

// languageIDs maps file extensions (and a few base names) to the LSP
// language identifiers servers expect in didOpen.
var languageIDs = map[string]string{
	".go": "go", ".mod": "go.mod", ".sum": "go.sum", ".work": "go.work",
	".ts": "typescript", ".tsx": "typescriptreact", ".mts": "typescript", ".cts": "typescript",
	".js": "javascript", ".jsx": "javascriptreact", ".mjs": "javascript", ".cjs": "javascript",
	".py": "python", ".pyi": "python", ".rs": "rust",
	".c": "c", ".h": "c", ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hxx": "cpp",
	".m": "objective-c", ".mm": "objective-cpp", ".zig": "zig", ".java": "java", ".kt": "kotlin", ".kts": "kotlin",
	".scala": "scala", ".sbt": "scala", ".sc": "scala", ".hs": "haskell", ".lhs": "haskell",
	".ml": "ocaml", ".mli": "ocaml", ".ex": "elixir", ".exs": "elixir", ".heex": "phoenix-heex", ".eex": "eex",
	".erl": "erlang", ".hrl": "erlang", ".gleam": "gleam", ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", ".erb": "erb",
	".sh": "shellscript", ".bash": "shellscript", ".zsh": "shellscript", ".lua": "lua", ".php": "php", ".phtml": "php",
	".cs": "csharp", ".csx": "csharp", ".yaml": "yaml", ".yml": "yaml", ".tf": "terraform", ".tfvars": "terraform-vars",
	".nix": "nix", ".odin": "odin", ".dart": "dart", ".md": "markdown", ".markdown": "markdown",
	".tex": "latex", ".bib": "bibtex", ".sty": "latex", ".cls": "latex", ".graphql": "graphql", ".gql": "graphql",
	".prisma": "prisma", ".vim": "vim", ".html": "html", ".htm": "html", ".css": "css", ".scss": "scss",
	".sass": "sass", ".less": "less", ".json": "json", ".jsonc": "jsonc", ".vue": "vue", ".svelte": "svelte",
	".astro": "astro", ".swift": "swift", ".tla": "tlaplus", ".dockerfile": "dockerfile", ".toml": "toml",
}

// LanguageID returns the LSP language identifier of a file, or
// "plaintext".
func LanguageID(path string) string {
	base := filepath.Base(path)
	if base == "Dockerfile" || strings.HasPrefix(base, "Dockerfile.") {
		return "dockerfile"
	}
	if base == "Makefile" {
		return "makefile"
	}
	if id, ok := languageIDs[strings.ToLower(filepath.Ext(path))]; ok {
		return id
	}
	return "plaintext"
}
