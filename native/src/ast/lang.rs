//! The languages whose grammars are linked into the library, by the
//! canonical names gopi's language registry uses.
use ast_grep_language::SupportLang;

/// Every linked language as (canonical name, ast-grep language), sorted by
/// name.
pub const LANGUAGES: &[(&str, SupportLang)] = &[
    ("bash", SupportLang::Bash),
    ("c", SupportLang::C),
    ("cpp", SupportLang::Cpp),
    ("csharp", SupportLang::CSharp),
    ("css", SupportLang::Css),
    ("dart", SupportLang::Dart),
    ("elixir", SupportLang::Elixir),
    ("go", SupportLang::Go),
    ("haskell", SupportLang::Haskell),
    ("hcl", SupportLang::Hcl),
    ("html", SupportLang::Html),
    ("java", SupportLang::Java),
    ("javascript", SupportLang::JavaScript),
    ("json", SupportLang::Json),
    ("kotlin", SupportLang::Kotlin),
    ("lua", SupportLang::Lua),
    ("markdown", SupportLang::Markdown),
    ("nix", SupportLang::Nix),
    ("php", SupportLang::Php),
    ("python", SupportLang::Python),
    ("ruby", SupportLang::Ruby),
    ("rust", SupportLang::Rust),
    ("scala", SupportLang::Scala),
    ("solidity", SupportLang::Solidity),
    ("swift", SupportLang::Swift),
    ("tsx", SupportLang::Tsx),
    ("typescript", SupportLang::TypeScript),
    ("yaml", SupportLang::Yaml),
    ("zig", SupportLang::Zig),
];

/// Looks a language up by canonical name (exact, lower case).
pub fn by_name(name: &str) -> Option<SupportLang> {
    LANGUAGES.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

/// The canonical names of every linked language, comma separated.
pub fn names() -> String {
    LANGUAGES
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_and_unique() {
        for w in LANGUAGES.windows(2) {
            assert!(w[0].0 < w[1].0, "{} before {}", w[0].0, w[1].0);
        }
        assert_eq!(by_name("go"), Some(SupportLang::Go));
        assert_eq!(by_name("Go"), None);
    }
}
