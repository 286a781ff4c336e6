//! Pattern compilation: one [`Matcher`] per (language, rule set), plus the
//! literal tokens every match of a rule must contain, which lets a search
//! skip files before parsing them.
use super::ambiguity;
use ast_grep_core::matcher::PatternNode;
use ast_grep_core::replacer::TemplateFix;
use ast_grep_core::tree_sitter::LanguageExt;
use ast_grep_core::{Language, MatchStrictness, Pattern};
use ast_grep_language::SupportLang;

/// Literal tokens shorter than this are not worth a prefilter pass.
const MIN_LITERAL: usize = 2;
/// At most this many literals (the longest) are checked per rule.
const MAX_LITERALS: usize = 4;

/// One pattern with its optional rewrite template.
pub struct Rule {
    /// The pattern as the caller wrote it.
    pub source: String,
    /// The primary parse first, then alternative parses (see
    /// [`ambiguity`]); a node matched by several is reported once.
    pub patterns: Vec<Pattern>,
    /// The rewrite template; `None` for search-only rules.
    pub fix: Option<TemplateFix>,
    /// Tokens every match of this rule contains (empty: no filter).
    pub literals: Vec<Literal>,
    /// Kind names of the root node of each entry of `patterns`.
    pub root_kinds: Vec<String>,
}

/// A token every match contains.
pub struct Literal {
    /// The token's text.
    pub text: Vec<u8>,
    /// The token is an identifier (its node kind is an `*identifier` kind
    /// and its text is ASCII word characters): the lexer took it as the
    /// longest run of identifier characters from where it started, so in
    /// the source no ASCII letter, digit or underscore follows it. The
    /// character before it is not checked: another token may end right
    /// there with a word character (`0AA` lexes as `0` then `AA`, and
    /// number suffixes such as `1L` end in letters).
    pub word: bool,
    finder: memchr::memmem::Finder<'static>,
}

impl Literal {
    fn new(text: String, word: bool) -> Literal {
        let finder = memchr::memmem::Finder::new(text.as_bytes()).into_owned();
        Literal {
            text: text.into_bytes(),
            word,
            finder,
        }
    }

    /// Where the token's text starts in `hay` (every occurrence, boundary
    /// or not), ascending.
    pub fn occurrences(&self, hay: &[u8]) -> Vec<usize> {
        self.finder.find_iter(hay).collect()
    }

    /// Whether `hay` holds the token (for words: not followed by a word
    /// character).
    pub fn found_in(&self, hay: &[u8]) -> bool {
        if !self.word {
            return self.finder.find(hay).is_some();
        }
        let n = self.text.len();
        self.finder
            .find_iter(hay)
            .any(|at| !hay.get(at + n).copied().is_some_and(is_word_byte))
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A compiled rule set for one language.
pub struct Matcher {
    pub lang: SupportLang,
    pub rules: Vec<Rule>,
    /// Whether the literal prefilter is sound for the strictness in use.
    pub prefilter: bool,
    /// Identifies what [`Matcher::may_match`] tests (language and every
    /// rule's literals), so that the parse cache can remember which files
    /// it ruled out; 0 when it rules nothing out.
    pub filter_key: u64,
}

/// A rule as the caller supplied it.
pub struct RuleSpec {
    pub pattern: String,
    pub rewrite: Option<String>,
}

/// Strictness codes of the C ABI.
pub fn strictness(code: u32) -> Result<MatchStrictness, String> {
    Ok(match code {
        0 => MatchStrictness::Smart,
        1 => MatchStrictness::Cst,
        2 => MatchStrictness::Ast,
        3 => MatchStrictness::Relaxed,
        4 => MatchStrictness::Signature,
        5 => MatchStrictness::Template,
        other => return Err(format!("unknown strictness code {other}")),
    })
}

/// An error compiling rule number `index`.
#[derive(Debug)]
pub struct CompileError {
    pub index: usize,
    pub message: String,
}

impl Matcher {
    /// Compiles every rule for `lang`; the first failing rule is reported.
    pub fn new(
        lang: SupportLang,
        specs: &[RuleSpec],
        strict: MatchStrictness,
    ) -> Result<Matcher, CompileError> {
        let prefilter = matches!(
            strict,
            MatchStrictness::Smart
                | MatchStrictness::Cst
                | MatchStrictness::Ast
                | MatchStrictness::Relaxed
        );
        let mut rules = Vec::with_capacity(specs.len());
        for (index, spec) in specs.iter().enumerate() {
            let rule = compile_rule(lang, spec, &strict)
                .map_err(|message| CompileError { index, message })?;
            rules.push(rule);
        }
        let filter_key = filter_key(lang, &rules, prefilter);
        Ok(Matcher {
            lang,
            rules,
            prefilter,
            filter_key,
        })
    }

    /// Whether `haystack` may hold a match of some rule: false only when
    /// every rule misses one of its literals.
    pub fn may_match(&self, haystack: &[u8]) -> bool {
        if !self.prefilter {
            return true;
        }
        self.rules
            .iter()
            .any(|r| r.literals.iter().all(|lit| lit.found_in(haystack)))
    }
}

/// The filter key of a rule set (see [`Matcher::filter_key`]).
fn filter_key(lang: SupportLang, rules: &[Rule], prefilter: bool) -> u64 {
    use std::hash::{Hash, Hasher};
    if !prefilter || rules.iter().any(|r| r.literals.is_empty()) {
        return 0;
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    lang.hash(&mut h);
    for r in rules {
        r.literals.len().hash(&mut h);
        for l in &r.literals {
            l.text.hash(&mut h);
            l.word.hash(&mut h);
        }
    }
    h.finish().max(1)
}

fn compile_rule(
    lang: SupportLang,
    spec: &RuleSpec,
    strict: &MatchStrictness,
) -> Result<Rule, String> {
    let src = spec.pattern.trim();
    if src.is_empty() {
        return Err("empty pattern".to_string());
    }
    if let Some(why) = super::parse::known_crash(lang, src.as_bytes()) {
        return Err(format!("Pattern `{src}` {why}"));
    }
    let primary = Pattern::try_new(src, lang).map_err(|e| e.to_string())?;
    if primary.has_error() {
        return Err(format!(
            "Pattern `{src}` is not valid code in this language: it parses to an error node"
        ));
    }
    let mut patterns = vec![primary];
    patterns.extend(ambiguity::alternatives(lang, src));
    let patterns: Vec<Pattern> = patterns
        .into_iter()
        .map(|p| p.with_strictness(strict.clone()))
        .collect();
    // Under cst and smart strictness every token of the pattern, named or
    // not, must meet a source token of the same kind and text, so keywords
    // count as literals too; the looser levels may skip unnamed pattern
    // tokens.
    let keywords = matches!(strict, MatchStrictness::Smart | MatchStrictness::Cst);
    let literals = common_literals(&patterns, lang, keywords);
    let ts = lang.get_ts_language();
    let root_kinds = patterns
        .iter()
        .map(|p| match &p.node {
            PatternNode::Internal { kind_id, .. } | PatternNode::Terminal { kind_id, .. } => {
                ts.node_kind_for_id(*kind_id).unwrap_or("?").to_string()
            }
            PatternNode::MetaVar { .. } => "$".to_string(),
        })
        .collect();
    let fix = match &spec.rewrite {
        Some(out) => Some(TemplateFix::try_new(out, &lang).map_err(|e| e.to_string())?),
        None => None,
    };
    Ok(Rule {
        source: src.to_string(),
        patterns,
        fix,
        literals,
        root_kinds,
    })
}

/// The literals present in every parse of a rule, longest first; with
/// `keywords`, keyword tokens of the pattern count too.
fn common_literals(patterns: &[Pattern], lang: SupportLang, keywords: bool) -> Vec<Literal> {
    let ts = lang.get_ts_language();
    let expando = lang.expando_char();
    let mut sets: Vec<Vec<(String, bool)>> = patterns
        .iter()
        .map(|p| {
            let mut v = Vec::new();
            collect_literals(&p.node, expando, &ts, keywords, &mut v);
            v
        })
        .collect();
    let mut lits = sets.remove(0);
    for other in &sets {
        lits.retain_mut(|(text, word)| {
            let same: Vec<bool> = other
                .iter()
                .filter(|(t, _)| t == text)
                .map(|(_, w)| *w)
                .collect();
            *word = *word && same.iter().all(|w| *w);
            !same.is_empty()
        });
    }
    // Identifiers first (their boundary check is more selective), then by
    // length.
    lits.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.0.len().cmp(&a.0.len()))
            .then(a.0.cmp(&b.0))
    });
    lits.dedup_by(|a, b| a.0 == b.0);
    // A plain literal contained in a longer kept one adds nothing.
    let mut out: Vec<(String, bool)> = Vec::new();
    for l in lits {
        if !l.1 && out.iter().any(|o| o.0.contains(l.0.as_str())) {
            continue;
        }
        out.push(l);
    }
    out.truncate(MAX_LITERALS);
    out.into_iter().map(|(t, w)| Literal::new(t, w)).collect()
}

/// Collects the text of named leaf nodes: under the strictness levels the
/// prefilter is used with, such a node only matches a node with the same
/// text, so every match contains it. With `keywords`, unnamed leaves made
/// of word characters (keywords such as `range` or `return`) are collected
/// too, as plain substrings: a grammar without keyword extraction may lex a
/// keyword out of a longer word, so no boundary is checked for them.
fn collect_literals(
    node: &PatternNode,
    expando: char,
    ts: &ast_grep_core::tree_sitter::TSLanguage,
    keywords: bool,
    out: &mut Vec<(String, bool)>,
) {
    match node {
        PatternNode::Terminal {
            text,
            is_named,
            kind_id,
        } => {
            if text.len() < MIN_LITERAL || text.contains(expando) || text.contains('$') {
                return;
            }
            if *is_named {
                let kind = ts.node_kind_for_id(*kind_id).unwrap_or("");
                let word = kind.ends_with("identifier") && text.bytes().all(is_word_byte);
                out.push((text.clone(), word));
            } else if keywords && text.bytes().all(is_word_byte) {
                out.push((text.clone(), false));
            }
        }
        PatternNode::Internal { children, .. } => {
            for c in children {
                collect_literals(c, expando, ts, keywords, out);
            }
        }
        PatternNode::MetaVar { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher(lang: SupportLang, pat: &str) -> Matcher {
        Matcher::new(
            lang,
            &[RuleSpec {
                pattern: pat.to_string(),
                rewrite: None,
            }],
            MatchStrictness::Smart,
        )
        .unwrap()
    }

    #[test]
    fn literals_of_go_pattern() {
        let m = matcher(SupportLang::Go, "if err != nil { return $ERR }");
        let lits: Vec<(String, bool)> = m.rules[0]
            .literals
            .iter()
            .map(|l| (String::from_utf8(l.text.clone()).unwrap(), l.word))
            .collect();
        assert_eq!(
            lits,
            vec![
                ("err".to_string(), true),
                ("return".to_string(), false),
                ("nil".to_string(), false),
                ("if".to_string(), false),
            ]
        );
        let k = "if x { return }; ";
        let has = |src: &str| m.may_match(format!("{k}{src}").as_bytes());
        assert!(has("x := err; y := nil"));
        assert!(!has("x := err"));
        // The keywords must be there too (as plain substrings).
        assert!(!m.may_match(b"x := err; y := nil; if x {}"));
        // "err" must not run on into more identifier characters...
        assert!(!has("x := errs; y := nil"));
        assert!(has("x := errs; y := nil; err"));
        // ...but may follow one: another token can end there (found by
        // FuzzMatch: Python "0AA" holds the identifier AA).
        assert!(has("x := 0err; y := nil"));
    }

    #[test]
    fn metavariable_only_has_no_literals() {
        let m = matcher(SupportLang::Python, "$A + $B");
        assert!(m.rules[0].literals.is_empty());
        assert!(m.may_match(b""));
    }

    #[test]
    fn multiple_nodes_rejected() {
        let e = Matcher::new(
            SupportLang::JavaScript,
            &[RuleSpec {
                pattern: "a; b".into(),
                rewrite: None,
            }],
            MatchStrictness::Smart,
        );
        assert!(e.is_err());
    }
}
