package grep

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/search/glob"
)

// TypeGlobs is the built-in file type table of Options.Types and
// Options.TypesNot (ripgrep's -t/-T): each type name maps to globs matched
// against a file's base name. Names and globs follow ripgrep's defaults for
// the common types.
var TypeGlobs = map[string][]string{
	"asm":        {"*.asm", "*.S", "*.s"},
	"c":          {"*.[chH]", "*.[chH].in", "*.cats"},
	"clojure":    {"*.clj", "*.cljc", "*.cljs", "*.cljx"},
	"cmake":      {"*.cmake", "CMakeLists.txt"},
	"cpp":        {"*.[ChH]", "*.cc", "*.[ch]pp", "*.[ch]xx", "*.hh", "*.inl", "*.[ChH].in", "*.cc.in", "*.[ch]pp.in", "*.[ch]xx.in", "*.hh.in"},
	"cs":         {"*.cs"},
	"css":        {"*.css", "*.scss"},
	"csv":        {"*.csv"},
	"dart":       {"*.dart"},
	"docker":     {"*Dockerfile*"},
	"elixir":     {"*.ex", "*.eex", "*.exs", "*.heex", "*.leex", "*.livemd"},
	"erlang":     {"*.erl", "*.hrl"},
	"go":         {"*.go"},
	"gomod":      {"go.mod", "go.sum", "go.work"},
	"graphql":    {"*.graphql", "*.graphqls"},
	"haskell":    {"*.hs", "*.lhs", "*.cpphs", "*.c2hs", "*.hsc"},
	"html":       {"*.htm", "*.html", "*.ejs"},
	"java":       {"*.java", "*.jsp", "*.jspx", "*.properties"},
	"js":         {"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"},
	"json":       {"*.json", "composer.lock", "*.sarif"},
	"jsonl":      {"*.jsonl"},
	"julia":      {"*.jl"},
	"kotlin":     {"*.kt", "*.kts"},
	"lua":        {"*.lua"},
	"make":       {"[Gg][Nn][Uu]makefile", "[Mm]akefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile.am", "[Mm]akefile.in", "*.mk", "*.mak"},
	"markdown":   {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
	"md":         {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
	"nix":        {"*.nix"},
	"ocaml":      {"*.ml", "*.mli", "*.mll", "*.mly"},
	"perl":       {"*.perl", "*.pl", "*.PL", "*.plh", "*.plx", "*.pm", "*.t"},
	"php":        {"*.php", "*.php3", "*.php4", "*.php5", "*.php7", "*.php8", "*.pht", "*.phtml"},
	"proto":      {"*.proto"},
	"py":         {"*.py", "*.pyi"},
	"python":     {"*.py", "*.pyi"},
	"r":          {"*.R", "*.r", "*.Rmd", "*.Rnw"},
	"ruby":       {"Gemfile", "*.gemspec", ".irbrc", "Rakefile", "*.rb", "*.rbw"},
	"rust":       {"*.rs"},
	"scala":      {"*.scala", "*.sbt"},
	"sh":         {"*.bash", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", "*.sh", ".zshrc", ".zprofile", "*.zsh", ".profile", "*.ksh", "*.csh", ".cshrc"},
	"sql":        {"*.sql", "*.psql"},
	"svelte":     {"*.svelte", "*.svelte.ts"},
	"swift":      {"*.swift"},
	"terraform":  {"*.tf", "*.tf.json", "*.tfvars"},
	"tex":        {"*.tex", "*.ltx", "*.cls", "*.sty", "*.bib", "*.dtx", "*.ins"},
	"toml":       {"*.toml", "Cargo.lock"},
	"ts":         {"*.ts", "*.tsx", "*.cts", "*.mts"},
	"typescript": {"*.ts", "*.tsx", "*.cts", "*.mts"},
	"txt":        {"*.txt"},
	"vim":        {"*.vim", ".vimrc", ".gvimrc", "vimrc", "gvimrc"},
	"xml":        {"*.xml", "*.xml.dist", "*.dtd", "*.xsl", "*.xslt", "*.xsd", "*.xjb", "*.rng", "*.sch", "*.xhtml"},
	"yaml":       {"*.yaml", "*.yml"},
	"zig":        {"*.zig"},
}

// TypeNames returns the names of TypeGlobs, sorted.
func TypeNames() []string {
	names := make([]string, 0, len(TypeGlobs))
	for n := range TypeGlobs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// compileTypes builds the type filter of Options.Types and TypesNot: a file
// is kept when its base name matches a glob of some type in include (when
// include is not empty) and none of a type in exclude. It returns nil when
// both are empty.
func compileTypes(include, exclude []string) (func(rel string) bool, error) {
	if len(include) == 0 && len(exclude) == 0 {
		return nil, nil
	}
	compile := func(names []string) ([]*glob.Pattern, error) {
		var out []*glob.Pattern
		for _, n := range names {
			globs, ok := TypeGlobs[n]
			if !ok {
				return nil, fmt.Errorf("unknown file type %q; known types: %s", n, strings.Join(TypeNames(), ", "))
			}
			for _, g := range globs {
				p, err := glob.Compile(g)
				if err != nil {
					return nil, fmt.Errorf("type %s: glob %q: %w", n, g, err)
				}
				out = append(out, p)
			}
		}
		return out, nil
	}
	inc, err := compile(include)
	if err != nil {
		return nil, err
	}
	exc, err := compile(exclude)
	if err != nil {
		return nil, err
	}
	anyMatch := func(ps []*glob.Pattern, name string) bool {
		return slices.ContainsFunc(ps, func(p *glob.Pattern) bool { return p.Match(name) })
	}
	return func(rel string) bool {
		name := path.Base(rel)
		if len(inc) > 0 && !anyMatch(inc, name) {
			return false
		}
		return !anyMatch(exc, name)
	}, nil
}
