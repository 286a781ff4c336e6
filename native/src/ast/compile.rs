//! Rule compilation: one [`Matcher`] per (language, rule set). A rule is
//! either a pattern (plus the literal tokens every match of it must
//! contain, which lets a search skip files before parsing them) or an
//! ast-grep rule document run by ast-grep's own rule engine
//! (`ast-grep-config`: kind, inside, has, not, all, any, ...).
use super::ambiguity;
use ast_grep_config::{Fixer, GlobalRules, RuleConfig, RuleCore, SerializableRuleConfig};
use ast_grep_core::matcher::{Matcher as _, PatternNode};
use ast_grep_core::replacer::TemplateFix;
use ast_grep_core::tree_sitter::LanguageExt;
use ast_grep_core::{Language, MatchStrictness, Pattern};
use ast_grep_language::SupportLang;

/// Literal tokens shorter than this are not worth a prefilter pass.
const MIN_LITERAL: usize = 2;
/// At most this many literals (the longest) are checked per rule.
const MAX_LITERALS: usize = 4;

/// One pattern with its optional rewrite template, or one rule of
/// ast-grep's rule engine (`engine`).
pub struct Rule {
    /// The pattern as the caller wrote it (empty for engine rules).
    pub source: String,
    /// The primary parse first, then alternative parses (see
    /// [`ambiguity`]); a node matched by several is reported once. Empty
    /// for engine rules.
    pub patterns: Vec<Pattern>,
    /// The rewrite template; `None` for search-only rules and engine
    /// rules (whose fix is in `engine`).
    pub fix: Option<TemplateFix>,
    /// Tokens every match of this rule contains (empty: no filter; for
    /// engine rules, see [`engine_literals`]).
    pub literals: Vec<Literal>,
    /// Kind names of the root node of each entry of `patterns`; for an
    /// engine rule one entry: the kinds it can match, joined by `|` (`*`
    /// when any kind can match).
    pub root_kinds: Vec<String>,
    /// The rule engine's matcher, for rules given as a rule document.
    pub engine: Option<EngineRule>,
}

/// A rule of ast-grep's rule engine, as `sg scan` builds it from a rule
/// document: the matcher (rule, constraints, utils, transform) and the
/// fix `sg scan --update-all` applies (the first one, when `fix` is a
/// list).
pub struct EngineRule {
    pub core: RuleCore,
    pub fix: Option<Fixer>,
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

    /// Where the token starts in `hay` as [`found_in`](Self::found_in)
    /// counts it (for words: not followed by a word character), ascending.
    pub fn found_at<'h>(&'h self, hay: &'h [u8]) -> impl Iterator<Item = usize> + 'h {
        let n = self.text.len();
        self.finder
            .find_iter(hay)
            .filter(move |&at| !self.word || !hay.get(at + n).copied().is_some_and(is_word_byte))
    }

    /// Whether `hay` holds the token (for words: not followed by a word
    /// character).
    pub fn found_in(&self, hay: &[u8]) -> bool {
        self.found_at(hay).next().is_some()
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
    /// Identifies what the matcher finds (language, strictness and every
    /// rule as given), so that the cache can keep a file's results.
    pub result_key: u64,
}

/// A rule as the caller supplied it: a pattern with an optional rewrite,
/// or (`config` set; `pattern` and `rewrite` are then unused) an ast-grep
/// rule document in YAML or JSON.
pub struct RuleSpec {
    pub pattern: String,
    pub rewrite: Option<String>,
    pub config: Option<String>,
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
        let result_key = result_key(lang, specs, &strict);
        Ok(Matcher {
            lang,
            rules,
            prefilter,
            filter_key,
            result_key,
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

/// The result key of a rule set (see [`Matcher::result_key`]).
fn result_key(lang: SupportLang, specs: &[RuleSpec], strict: &MatchStrictness) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    lang.hash(&mut h);
    let code: u8 = match strict {
        MatchStrictness::Smart => 0,
        MatchStrictness::Cst => 1,
        MatchStrictness::Ast => 2,
        MatchStrictness::Relaxed => 3,
        MatchStrictness::Signature => 4,
        MatchStrictness::Template => 5,
    };
    code.hash(&mut h);
    specs.len().hash(&mut h);
    for s in specs {
        s.pattern.hash(&mut h);
        s.rewrite.hash(&mut h);
        s.config.hash(&mut h);
    }
    h.finish()
}

fn compile_rule(
    lang: SupportLang,
    spec: &RuleSpec,
    strict: &MatchStrictness,
) -> Result<Rule, String> {
    if let Some(doc) = &spec.config {
        return compile_engine_rule(lang, doc);
    }
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
        engine: None,
    })
}

/// Compiles an ast-grep rule document (one YAML or JSON document with
/// `rule` and optionally `constraints`, `utils`, `transform`, `rewriters`,
/// `fix`, plus the metadata keys `sg scan` accepts) the way `sg scan` does:
/// the same YAML reader, the same checks (`RuleConfig::try_from`: unknown
/// keys, undefined metavariables in `fix`, a rule that can match any kind
/// of node), no global utility rules. Its `language` must be `lang` (any
/// of ast-grep's names for it). `files` and `ignores` are refused: they
/// choose the files a rule applies to, which the caller does.
///
/// The strictness the matcher is compiled with does not apply: patterns in
/// a rule document use their own (`pattern: {strictness: ...}`, smart by
/// default), as in ast-grep.
fn compile_engine_rule(lang: SupportLang, doc: &str) -> Result<Rule, String> {
    // Patterns inside the document are parsed with `lang`'s grammar while
    // it is deserialized: refuse what could crash the grammar, as for a
    // pattern (a superset: the whole document is checked).
    if let Some(why) = super::parse::known_crash(lang, doc.as_bytes()) {
        return Err(format!("rule {why}"));
    }
    let cfg: SerializableRuleConfig<SupportLang> =
        ast_grep_config::from_str(doc).map_err(|e| format!("cannot read the rule: {e}"))?;
    if cfg.language != lang {
        return Err(format!(
            "the rule's language is {}, not {}",
            cfg.language, lang
        ));
    }
    if cfg.files.is_some() || cfg.ignores.is_some() {
        return Err(
            "files and ignores are not supported: choose the files with paths and globs".into(),
        );
    }
    let literals = engine_literals(lang, doc);
    let mut rc = RuleConfig::try_from(cfg, &GlobalRules::default()).map_err(|e| error_chain(&e))?;
    let fix = if rc.fixer.is_empty() {
        None
    } else {
        Some(rc.fixer.swap_remove(0))
    };
    let core = std::mem::take(&mut rc.matcher);
    let ts = lang.get_ts_language();
    let kinds = match core.potential_kinds() {
        Some(set) => {
            let mut names: Vec<&str> = set
                .iter()
                .filter_map(|k| ts.node_kind_for_id(k as u16))
                .collect();
            names.sort_unstable();
            names.dedup();
            names.join("|")
        }
        None => "*".to_string(),
    };
    Ok(Rule {
        source: String::new(),
        patterns: Vec::new(),
        fix: None,
        literals,
        root_kinds: vec![kinds],
        engine: Some(EngineRule { core, fix }),
    })
}

/// The parts of a rule document [`engine_literals`] reads: the pattern
/// strings a matched node itself must match (`rule.pattern`, and those of
/// `rule.all`, recursively); every other key is ignored.
#[derive(serde::Deserialize)]
struct ProbeDoc {
    rule: ProbeRule,
}

#[derive(serde::Deserialize)]
struct ProbeRule {
    #[serde(default)]
    pattern: Option<ProbePattern>,
    #[serde(default)]
    all: Option<Vec<ProbeRule>>,
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum ProbePattern {
    Plain(String),
    /// A pattern object (context, selector, strictness): not used.
    Other(serde::de::IgnoredAny),
}

/// Literal tokens every match of an engine rule contains, for the file
/// prefilter: those of the plain-string patterns the matched node itself
/// must match (the rule's `pattern`, or one in `all`), which ast-grep
/// compiles as `Pattern::try_new` at smart strictness, the strictness the
/// prefilter's literals are sound for (keywords included). Relational,
/// `not`, `any` and `matches` sub-rules add nothing (they only narrow the
/// matches further); pattern objects, which may set another strictness,
/// and patterns that parse with errors are not used. Empty when nothing is
/// known: then no file is skipped for the rule.
fn engine_literals(lang: SupportLang, doc: &str) -> Vec<Literal> {
    fn plain(rule: &ProbeRule, out: &mut Vec<String>) {
        if let Some(ProbePattern::Plain(p)) = &rule.pattern {
            out.push(p.clone());
        }
        for r in rule.all.iter().flatten() {
            plain(r, out);
        }
    }
    let Ok(probe) = ast_grep_config::from_str::<ProbeDoc>(doc) else {
        return Vec::new();
    };
    let mut sources = Vec::new();
    plain(&probe.rule, &mut sources);
    let mut best: Vec<Literal> = Vec::new();
    for src in sources {
        let Ok(p) = Pattern::try_new(&src, lang) else {
            continue;
        };
        if p.has_error() {
            continue;
        }
        let lits = common_literals(&[p], lang, true);
        // One pattern's literals suffice; keep the pattern with most.
        if lits.len() > best.len() {
            best = lits;
        }
    }
    best
}

/// An error and its causes, outermost first, joined by ": " (ast-grep's
/// errors say what part of the rule failed and keep the why in `source`).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let s = c.to_string();
        if !out.ends_with(&s) {
            if out.ends_with('.') {
                out.pop();
            }
            out.push_str(": ");
            out.push_str(&s);
        }
        cur = c.source();
    }
    out
}

// A matcher is shared by every thread searching with it.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<Matcher>();
};

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
    // length, keywords before operators.
    lits.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.0.len().cmp(&a.0.len()))
            .then(is_operator(&a.0).cmp(&is_operator(&b.0)))
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
/// of word characters (keywords such as `range` or `return`) and operators
/// of two or more punctuation characters (`?.`, `=>`, `::`, `->`) are
/// collected too, as plain substrings: a grammar without keyword extraction
/// may lex a keyword out of a longer word, so no boundary is checked for
/// them. (Without the operators, `$A?.$B` had no literal at all: every
/// TypeScript file was parsed whole and walked node by node.)
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
            } else if keywords && (text.bytes().all(is_word_byte) || is_operator(text)) {
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

/// Whether text is an operator token: ASCII punctuation only (no word
/// characters, no white space, not a string or comment delimiter that
/// could be written another way).
fn is_operator(text: &str) -> bool {
    text.len() >= MIN_LITERAL
        && text
            .bytes()
            .all(|b| b.is_ascii_punctuation() && !matches!(b, b'"' | b'\'' | b'`' | b'\\'))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A matcher of one plain pattern, smart strictness (for the tests of
    /// every module of the engine).
    pub(crate) fn matcher(lang: SupportLang, pat: &str) -> Matcher {
        Matcher::new(
            lang,
            &[RuleSpec {
                pattern: pat.to_string(),
                rewrite: None,
                config: None,
            }],
            MatchStrictness::Smart,
        )
        .unwrap_or_else(|e| panic!("{}", e.message))
    }

    #[test]
    fn operators_are_literals() {
        let m = matcher(SupportLang::TypeScript, "$A?.$B");
        let lits: Vec<String> = m.rules[0]
            .literals
            .iter()
            .map(|l| String::from_utf8(l.text.clone()).unwrap())
            .collect();
        assert_eq!(lits, vec!["?.".to_string()]);
        assert!(m.may_match(b"const x = a?.b;"));
        assert!(!m.may_match(b"const x = a.b ? c : d;"));
        // Quotes and backslashes are never taken: a string could spell them
        // another way.
        assert!(!is_operator("\"\"") && !is_operator("\\n") && is_operator("=>"));
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
                config: None,
            }],
            MatchStrictness::Smart,
        );
        assert!(e.is_err());
    }
}
