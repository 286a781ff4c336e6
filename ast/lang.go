package ast

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// Language is one entry of the registry.
type Language struct {
	Name       string   // canonical name, as the reference agent spells it
	Aliases    []string // other accepted names (lower case)
	Extensions []string // file extensions with the dot, lower case
	FileNames  []string // exact base names (Dockerfile, Makefile, ...)
	// DollarIdent: `$` can start an identifier or variable in this language,
	// so `$name` in a pattern is code, not a misspelt metavariable.
	DollarIdent bool
}

// DisplayName is how ast-grep names the language name in its JSON output
// ("Go", "TypeScript", "Tsx", "CSharp"); a language ast-grep does not have
// gets its name capitalised.
func DisplayName(name string) string {
	switch name {
	case "csharp":
		return "CSharp"
	case "javascript":
		return "JavaScript"
	case "typescript":
		return "TypeScript"
	case "":
		return ""
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// registry lists the 56 canonical languages of the reference agent.
var registry = []Language{
	{Name: "astro", Extensions: []string{".astro"}},
	{Name: "bash", Aliases: []string{"sh", "shell", "zsh"}, Extensions: []string{".sh", ".bash", ".zsh", ".bashrc", ".zshrc"}, DollarIdent: true},
	{Name: "c", Extensions: []string{".c", ".h"}},
	{Name: "cmake", Extensions: []string{".cmake"}, FileNames: []string{"CMakeLists.txt"}, DollarIdent: true},
	{Name: "cpp", Aliases: []string{"c++", "cc", "cxx"}, Extensions: []string{".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"}},
	{Name: "csharp", Aliases: []string{"c#", "cs"}, Extensions: []string{".cs"}},
	{Name: "dart", Extensions: []string{".dart"}, DollarIdent: true},
	{Name: "clojure", Aliases: []string{"clj"}, Extensions: []string{".clj", ".cljs", ".cljc", ".edn"}},
	{Name: "css", Extensions: []string{".css", ".scss"}},
	{Name: "diff", Aliases: []string{"patch"}, Extensions: []string{".diff", ".patch"}},
	{Name: "dockerfile", Aliases: []string{"docker"}, Extensions: []string{".dockerfile"}, FileNames: []string{"Dockerfile", "Containerfile"}, DollarIdent: true},
	{Name: "elixir", Aliases: []string{"ex"}, Extensions: []string{".ex", ".exs"}},
	{Name: "erlang", Aliases: []string{"erl"}, Extensions: []string{".erl", ".hrl"}},
	{Name: "go", Aliases: []string{"golang"}, Extensions: []string{".go"}},
	{Name: "graphql", Aliases: []string{"gql"}, Extensions: []string{".graphql", ".gql"}, DollarIdent: true},
	{Name: "haskell", Aliases: []string{"hs"}, Extensions: []string{".hs", ".lhs"}},
	{Name: "hcl", Aliases: []string{"terraform", "tf"}, Extensions: []string{".hcl", ".tf", ".tfvars"}},
	{Name: "html", Aliases: []string{"htm"}, Extensions: []string{".html", ".htm", ".xhtml"}},
	{Name: "ini", Extensions: []string{".ini", ".cfg", ".conf"}},
	{Name: "java", Extensions: []string{".java"}, DollarIdent: true},
	{Name: "javascript", Aliases: []string{"js", "jsx", "node"}, Extensions: []string{".js", ".jsx", ".mjs", ".cjs"}, DollarIdent: true},
	{Name: "json", Aliases: []string{"jsonc"}, Extensions: []string{".json", ".jsonc", ".json5"}},
	{Name: "just", Aliases: []string{"justfile"}, Extensions: []string{".just"}, FileNames: []string{"justfile", "Justfile", ".justfile"}},
	{Name: "julia", Aliases: []string{"jl"}, Extensions: []string{".jl"}, DollarIdent: true},
	{Name: "kotlin", Aliases: []string{"kt"}, Extensions: []string{".kt", ".kts"}},
	{Name: "lua", Extensions: []string{".lua"}},
	{Name: "make", Aliases: []string{"makefile"}, Extensions: []string{".mk", ".mak"}, FileNames: []string{"Makefile", "makefile", "GNUmakefile"}, DollarIdent: true},
	{Name: "markdown", Aliases: []string{"md"}, Extensions: []string{".md", ".markdown", ".mdx"}},
	{Name: "nix", Extensions: []string{".nix"}, DollarIdent: true},
	{Name: "objc", Aliases: []string{"objective-c", "objectivec"}, Extensions: []string{".m", ".mm"}},
	{Name: "ocaml", Aliases: []string{"ml"}, Extensions: []string{".ml", ".mli"}},
	{Name: "odin", Extensions: []string{".odin"}},
	{Name: "perl", Aliases: []string{"pl"}, Extensions: []string{".pl", ".pm", ".t"}, DollarIdent: true},
	{Name: "php", Extensions: []string{".php", ".phtml"}, DollarIdent: true},
	{Name: "powershell", Aliases: []string{"ps1", "pwsh"}, Extensions: []string{".ps1", ".psm1", ".psd1"}, DollarIdent: true},
	{Name: "protobuf", Aliases: []string{"proto"}, Extensions: []string{".proto"}},
	{Name: "python", Aliases: []string{"py", "python3"}, Extensions: []string{".py", ".pyi", ".pyw"}},
	{Name: "r", Extensions: []string{".r"}, DollarIdent: true},
	{Name: "regex", Aliases: []string{"regexp"}, Extensions: []string{".regex"}},
	{Name: "ruby", Aliases: []string{"rb"}, Extensions: []string{".rb", ".rake", ".gemspec"}, FileNames: []string{"Rakefile", "Gemfile"}, DollarIdent: true},
	{Name: "rust", Aliases: []string{"rs"}, Extensions: []string{".rs"}},
	{Name: "scala", Extensions: []string{".scala", ".sc", ".sbt"}, DollarIdent: true},
	{Name: "solidity", Aliases: []string{"sol"}, Extensions: []string{".sol"}},
	{Name: "sql", Extensions: []string{".sql"}},
	{Name: "starlark", Aliases: []string{"bazel", "bzl", "star"}, Extensions: []string{".bzl", ".star", ".bazel"}, FileNames: []string{"BUILD", "WORKSPACE"}},
	{Name: "svelte", Extensions: []string{".svelte"}, DollarIdent: true},
	{Name: "swift", Extensions: []string{".swift"}, DollarIdent: true},
	{Name: "toml", Extensions: []string{".toml"}},
	{Name: "tlaplus", Aliases: []string{"tla", "tla+"}, Extensions: []string{".tla"}},
	{Name: "tsx", Extensions: []string{".tsx"}, DollarIdent: true},
	{Name: "typescript", Aliases: []string{"ts"}, Extensions: []string{".ts", ".mts", ".cts"}, DollarIdent: true},
	{Name: "verilog", Aliases: []string{"systemverilog", "sv"}, Extensions: []string{".v", ".sv", ".svh", ".vh"}, DollarIdent: true},
	{Name: "vue", Extensions: []string{".vue"}, DollarIdent: true},
	{Name: "xml", Extensions: []string{".xml", ".xsd", ".xsl", ".svg", ".plist"}},
	{Name: "yaml", Aliases: []string{"yml"}, Extensions: []string{".yaml", ".yml"}},
	{Name: "zig", Extensions: []string{".zig"}},
}

var (
	indexOnce sync.Once
	byName    map[string]*Language
	byExt     map[string]*Language
	byFile    map[string]*Language
	linked    map[string]bool
)

func buildIndex() {
	byName = map[string]*Language{}
	byExt = map[string]*Language{}
	byFile = map[string]*Language{}
	for i := range registry {
		l := &registry[i]
		byName[l.Name] = l
		for _, a := range l.Aliases {
			byName[a] = l
		}
		for _, e := range l.Extensions {
			byExt[e] = l
		}
		for _, f := range l.FileNames {
			byFile[f] = l
		}
	}
	linked = map[string]bool{}
	for _, n := range astgrep.Languages() {
		linked[n] = true
	}
}

// Languages returns the registry in canonical-name order of the reference
// agent.
func Languages() []Language { return slices.Clone(registry) }

// Linked reports whether the grammar of the canonical language name is
// built into this binary.
func Linked(name string) bool {
	indexOnce.Do(buildIndex)
	return linked[name]
}

// LookupLanguage resolves a canonical name or alias (case-insensitive).
func LookupLanguage(name string) (*Language, error) {
	indexOnce.Do(buildIndex)
	if l := byName[strings.ToLower(strings.TrimSpace(name))]; l != nil {
		return l, nil
	}
	// Offer only the languages this binary can parse (all of them when no
	// grammar is linked, as in a build without cgo, which refuses later).
	var names []string
	for _, l := range registry {
		if linked[l.Name] || len(linked) == 0 {
			names = append(names, l.Name)
		}
	}
	return nil, fmt.Errorf("Unsupported language %q; use one of: %s", name, strings.Join(names, ", "))
}

// InferLanguage returns the language of a file from its name, or nil.
func InferLanguage(path string) *Language {
	indexOnce.Do(buildIndex)
	base := filepath.Base(path)
	if l := byFile[base]; l != nil {
		return l
	}
	if l := byExt[strings.ToLower(filepath.Ext(base))]; l != nil {
		return l
	}
	if strings.HasPrefix(base, "Dockerfile.") || strings.HasSuffix(base, ".Dockerfile") {
		return byName["dockerfile"]
	}
	return nil
}
