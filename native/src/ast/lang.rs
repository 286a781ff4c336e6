//! The languages whose grammars are linked into the library, by the
//! canonical names gopi's language registry uses.
use ast_grep_language::SupportLang;

/// Every language gopi can link, as (canonical name, ast-grep language,
/// whether its grammar is linked into this build: cargo features
/// `lang-<name>`, all by default), sorted by name.
const ALL: &[(&str, SupportLang, bool)] = &[
    ("bash", SupportLang::Bash, cfg!(feature = "lang-bash")),
    ("c", SupportLang::C, cfg!(feature = "lang-c")),
    ("cpp", SupportLang::Cpp, cfg!(feature = "lang-cpp")),
    ("csharp", SupportLang::CSharp, cfg!(feature = "lang-csharp")),
    ("css", SupportLang::Css, cfg!(feature = "lang-css")),
    ("dart", SupportLang::Dart, cfg!(feature = "lang-dart")),
    ("elixir", SupportLang::Elixir, cfg!(feature = "lang-elixir")),
    ("go", SupportLang::Go, cfg!(feature = "lang-go")),
    (
        "haskell",
        SupportLang::Haskell,
        cfg!(feature = "lang-haskell"),
    ),
    ("hcl", SupportLang::Hcl, cfg!(feature = "lang-hcl")),
    ("html", SupportLang::Html, cfg!(feature = "lang-html")),
    ("java", SupportLang::Java, cfg!(feature = "lang-java")),
    (
        "javascript",
        SupportLang::JavaScript,
        cfg!(feature = "lang-javascript"),
    ),
    ("json", SupportLang::Json, cfg!(feature = "lang-json")),
    ("kotlin", SupportLang::Kotlin, cfg!(feature = "lang-kotlin")),
    ("lua", SupportLang::Lua, cfg!(feature = "lang-lua")),
    (
        "markdown",
        SupportLang::Markdown,
        cfg!(feature = "lang-markdown"),
    ),
    ("nix", SupportLang::Nix, cfg!(feature = "lang-nix")),
    ("php", SupportLang::Php, cfg!(feature = "lang-php")),
    ("python", SupportLang::Python, cfg!(feature = "lang-python")),
    ("ruby", SupportLang::Ruby, cfg!(feature = "lang-ruby")),
    ("rust", SupportLang::Rust, cfg!(feature = "lang-rust")),
    ("scala", SupportLang::Scala, cfg!(feature = "lang-scala")),
    (
        "solidity",
        SupportLang::Solidity,
        cfg!(feature = "lang-solidity"),
    ),
    ("swift", SupportLang::Swift, cfg!(feature = "lang-swift")),
    ("tsx", SupportLang::Tsx, cfg!(feature = "lang-tsx")),
    (
        "typescript",
        SupportLang::TypeScript,
        cfg!(feature = "lang-typescript"),
    ),
    ("yaml", SupportLang::Yaml, cfg!(feature = "lang-yaml")),
    ("zig", SupportLang::Zig, cfg!(feature = "lang-zig")),
];

/// The linked languages as (canonical name, ast-grep language), sorted by
/// name: asking a grammar that is not linked for a tree panics.
pub fn linked() -> impl Iterator<Item = (&'static str, SupportLang)> {
    ALL.iter().filter(|(_, _, on)| *on).map(|&(n, l, _)| (n, l))
}

/// Looks a language up by canonical name (exact, lower case).
pub fn by_name(name: &str) -> Option<SupportLang> {
    linked().find(|(n, _)| *n == name).map(|(_, l)| l)
}

/// The canonical names of every linked language, comma separated.
pub fn names() -> String {
    linked().map(|(n, _)| n).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ast_grep_core::tree_sitter::LanguageExt;

    #[test]
    fn sorted_and_unique() {
        for w in ALL.windows(2) {
            assert!(w[0].0 < w[1].0, "{} before {}", w[0].0, w[1].0);
        }
        assert_eq!(by_name("go"), Some(SupportLang::Go));
        assert_eq!(by_name("Go"), None);
    }

    #[test]
    fn every_linked_grammar_loads() {
        for (name, lang) in linked() {
            assert!(
                lang.get_ts_language().node_kind_count() > 0,
                "{name} has no grammar"
            );
        }
    }
}
