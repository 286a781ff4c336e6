//! Matching one source against a [`Matcher`] and describing the result.
use super::compile::{Literal, Matcher, Rule};
use super::parse::{self, Control, ParseFail, Stop};
use ast_grep_core::matcher::{Matcher as _, MatcherExt as _};
use ast_grep_core::meta_var::MetaVariable;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{Node, NodeMatch, Pattern};
use ast_grep_language::SupportLang;
use std::collections::HashSet;

/// How far the search of one input got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    Searched = 0,
    /// The literal prefilter proved no rule can match: not parsed.
    Skipped = 1,
    ReadError = 2,
    Binary = 3,
    NotUtf8 = 4,
    TooLarge = 5,
    ParseFailed = 6,
    /// Work stopped (cancel or timeout) before this input was done.
    Stopped = 7,
}

/// A position: 0-based line, 0-based column in characters, byte offset.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
    pub offset: u64,
}

/// One node of a capture.
pub struct CapturedNode {
    pub start: Pos,
    pub end: Pos,
    pub text: String,
}

/// A captured metavariable; `multi` for `$$$NAME`.
pub struct Capture {
    pub name: String,
    pub multi: bool,
    pub nodes: Vec<CapturedNode>,
}

/// The edit a rewrite rule makes for one match.
pub struct Edit {
    pub start: u64,
    pub end: u64,
    pub replacement: Vec<u8>,
}

/// One match.
pub struct Match {
    pub rule: u32,
    pub start: Pos,
    pub end: Pos,
    pub text: String,
    /// Whole source lines the match touches, without the final newline.
    pub lines: String,
    pub captures: Vec<Capture>,
    pub edit: Option<Edit>,
}

/// The outcome for one input.
pub struct FileRecord {
    pub status: Status,
    pub syntax_error: bool,
    /// Error text, or where the first syntax error is.
    pub message: String,
    pub matches: Vec<Match>,
}

impl FileRecord {
    pub fn new(status: Status, message: impl Into<String>) -> FileRecord {
        FileRecord {
            status,
            syntax_error: false,
            message: message.into(),
            matches: Vec::new(),
        }
    }
}

/// What to collect.
pub struct Want {
    pub captures: bool,
    pub edits: bool,
    pub prefilter: bool,
}

/// Bytes looked at for a NUL when deciding whether input is binary.
const BINARY_PROBE: usize = 8192;

/// Searches `data`; the stop reason is returned when work stopped.
pub fn search_bytes(
    m: &Matcher,
    data: Vec<u8>,
    want: &Want,
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    if want.prefilter && !m.may_match(&data) {
        return (FileRecord::new(Status::Skipped, ""), None);
    }
    let probe = &data[..data.len().min(BINARY_PROBE)];
    if memchr::memchr(0, probe).is_some() {
        return (
            FileRecord::new(Status::Binary, "binary file (contains NUL bytes)"),
            None,
        );
    }
    let src = match String::from_utf8(data) {
        Ok(s) => s,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            return (
                FileRecord::new(
                    Status::NotUtf8,
                    format!("not valid UTF-8 (first bad byte at offset {at})"),
                ),
                None,
            );
        }
    };
    search_source(m, src, want, ctl)
}

/// Parses and matches a UTF-8 source.
pub fn search_source(
    m: &Matcher,
    src: String,
    want: &Want,
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    let root = match parse::parse(m.lang, src, ctl) {
        Ok(r) => r,
        Err(ParseFail::Stopped(s)) => return (FileRecord::new(Status::Stopped, ""), Some(s)),
        Err(ParseFail::Failed(msg)) => return (FileRecord::new(Status::ParseFailed, msg), None),
    };
    let mut rec = FileRecord::new(Status::Searched, "");
    let top = root.root();
    let inner = top.get_inner_node();
    if inner.has_error() {
        rec.syntax_error = true;
        rec.message = first_error(inner);
    }
    let source = root.get_text();
    let prune = want.prefilter && m.prefilter;
    let mut seen: HashSet<(u32, usize, usize)> = HashSet::new();
    for (ri, rule) in m.rules.iter().enumerate() {
        let hits = if prune {
            anchor(rule, source.as_bytes())
        } else {
            None
        };
        let found: Vec<NodeMatch<Doc>> = match hits {
            Some((hits, len)) => find_pruned(&top, &rule.patterns, &hits, len),
            None => rule.patterns.iter().flat_map(|p| top.find_all(p)).collect(),
        };
        for nm in found {
            let range = nm.get_node().range();
            if !seen.insert((ri as u32, range.start, range.end)) {
                continue;
            }
            let edit = if want.edits {
                rule.fix.as_ref().map(|fix| {
                    // The whole matched node is replaced, as ast-grep's CLI
                    // and the reference agent do (`replace_by`).
                    let e = nm.replace_by(fix);
                    Edit {
                        start: e.position as u64,
                        end: (e.position + e.deleted_length) as u64,
                        replacement: e.inserted_text,
                    }
                })
            } else {
                None
            };
            rec.matches
                .push(describe(ri as u32, &nm, source, want.captures, edit));
        }
        if let Some(s) = ctl.stopped() {
            rec.status = Status::Stopped;
            rec.matches.clear();
            return (rec, Some(s));
        }
    }
    rec.matches
        .sort_by_key(|m| (m.start.offset, m.end.offset, m.rule));
    (rec, None)
}

type Doc = StrDoc<SupportLang>;

/// The start offsets of the rule's rarest literal in `src` and its length;
/// `None` when the rule has no literal.
fn anchor(rule: &Rule, src: &[u8]) -> Option<(Vec<usize>, usize)> {
    rule.literals
        .iter()
        .map(|l: &Literal| (l.occurrences(src), l.text.len()))
        .min_by_key(|(hits, _)| hits.len())
}

/// Matches the patterns against every node whose byte range holds one of
/// `hits` (a literal of `len` bytes that every match contains, by the same
/// argument as the file prefilter), skipping every other subtree: far fewer
/// nodes are visited than by a full walk (`find_all`, the reference this
/// must agree with; FuzzMatch compares them).
fn find_pruned<'r>(
    top: &Node<'r, Doc>,
    patterns: &[Pattern],
    hits: &[usize],
    len: usize,
) -> Vec<NodeMatch<'r, Doc>> {
    let kinds: Vec<_> = patterns.iter().map(|p| p.potential_kinds()).collect();
    let mut out = Vec::new();
    let mut stack = vec![top.clone()];
    while let Some(node) = stack.pop() {
        let r = node.range();
        let i = hits.partition_point(|&at| at < r.start);
        if i == hits.len() || hits[i] + len > r.end {
            continue;
        }
        let kind = usize::from(node.kind_id());
        for (p, k) in patterns.iter().zip(&kinds) {
            if k.as_ref().is_some_and(|k| !k.contains(kind)) {
                continue;
            }
            if let Some(nm) = p.match_node(node.clone()) {
                out.push(nm);
            }
        }
        let first = stack.len();
        stack.extend(node.children());
        stack[first..].reverse();
    }
    out
}

fn pos_of(node: &Node<Doc>, start: bool) -> Pos {
    let p = if start {
        node.start_pos()
    } else {
        node.end_pos()
    };
    let offset = if start {
        node.range().start
    } else {
        node.range().end
    };
    Pos {
        line: p.line() as u32,
        column: p.column(node) as u32,
        offset: offset as u64,
    }
}

fn describe(
    rule: u32,
    nm: &NodeMatch<Doc>,
    source: &str,
    want_caps: bool,
    edit: Option<Edit>,
) -> Match {
    let node = nm.get_node();
    let range = node.range();
    let captures = if want_caps { captures(nm) } else { Vec::new() };
    Match {
        rule,
        start: pos_of(node, true),
        end: pos_of(node, false),
        text: node.text().to_string(),
        lines: whole_lines(source, range.start, range.end).to_string(),
        captures,
        edit,
    }
}

fn captures(nm: &NodeMatch<Doc>) -> Vec<Capture> {
    let env = nm.get_env();
    let mut out: Vec<Capture> = Vec::new();
    for var in env.get_matched_variables() {
        let (name, multi, nodes) = match var {
            MetaVariable::Capture(name, _) => {
                let nodes: Vec<_> = env.get_match(&name).into_iter().cloned().collect();
                (name, false, nodes)
            }
            MetaVariable::MultiCapture(name) => {
                let nodes = env.get_multiple_matches(&name);
                (name, true, nodes)
            }
            _ => continue,
        };
        let nodes = nodes
            .iter()
            .map(|n| CapturedNode {
                start: pos_of(n, true),
                end: pos_of(n, false),
                text: n.text().to_string(),
            })
            .collect();
        out.push(Capture { name, multi, nodes });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The source lines touched by `start..end`, without the last newline
/// (and its `\r`, unless the match itself ends with that `\r`).
fn whole_lines(src: &str, start: usize, end: usize) -> &str {
    let b = src.as_bytes();
    let lo = memchr::memrchr(b'\n', &b[..start]).map_or(0, |i| i + 1);
    let hi = memchr::memchr(b'\n', &b[end.max(lo)..]).map_or(b.len(), |i| end.max(lo) + i);
    let hi = if hi > lo && hi > end && b[hi - 1] == b'\r' {
        hi - 1
    } else {
        hi
    };
    &src[lo..hi.max(lo)]
}

/// Describes where the first error or missing node is (1-based).
fn first_error(root: tree_sitter::Node) -> String {
    let mut cursor = root.walk();
    loop {
        let n = cursor.node();
        if n.is_error() || n.is_missing() {
            let p = n.start_position();
            let what = if n.is_missing() {
                format!("missing {}", n.kind())
            } else {
                "syntax error".to_string()
            };
            return format!("{what} at line {}, column {}", p.row + 1, p.column + 1);
        }
        if n.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return "syntax error".to_string();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::compile::{Matcher, RuleSpec};
    use ast_grep_core::MatchStrictness;

    fn run(lang: SupportLang, pat: &str, out: Option<&str>, src: &str) -> FileRecord {
        let m = Matcher::new(
            lang,
            &[RuleSpec {
                pattern: pat.into(),
                rewrite: out.map(String::from),
            }],
            MatchStrictness::Smart,
        )
        .unwrap();
        let ctl = Control {
            cancel: None,
            deadline: None,
        };
        let want = Want {
            captures: true,
            edits: true,
            prefilter: true,
        };
        search_bytes(&m, src.as_bytes().to_vec(), &want, &ctl).0
    }

    #[test]
    fn captures_and_edit() {
        let r = run(
            SupportLang::JavaScript,
            "console.log($$$ARGS)",
            Some("logger.info($$$ARGS)"),
            "x;\nconsole.log(a, b);\n",
        );
        assert_eq!(r.status, Status::Searched);
        assert_eq!(r.matches.len(), 1);
        let m = &r.matches[0];
        assert_eq!(m.start.line, 1);
        assert_eq!(m.text, "console.log(a, b)");
        assert_eq!(m.lines, "console.log(a, b);");
        assert_eq!(m.captures[0].name, "ARGS");
        assert!(m.captures[0].multi);
        let e = m.edit.as_ref().unwrap();
        assert_eq!(
            String::from_utf8(e.replacement.clone()).unwrap(),
            "logger.info(a, b)"
        );
    }

    #[test]
    fn prefilter_skips() {
        let r = run(
            SupportLang::JavaScript,
            "console.log($A)",
            None,
            "let x = 1;\n",
        );
        assert_eq!(r.status, Status::Skipped);
    }

    #[test]
    fn syntax_errors_reported_and_searched() {
        let r = run(SupportLang::Python, "print($A)", None, "print(1)\ndef (:\n");
        assert!(r.syntax_error);
        assert_eq!(r.matches.len(), 1);
    }

    #[test]
    fn whole_lines_bounds() {
        assert_eq!(whole_lines("ab\ncd\nef", 3, 5), "cd");
        assert_eq!(whole_lines("ab\r\ncd", 0, 1), "ab");
        assert_eq!(whole_lines("", 0, 0), "");
        // A match that ends with the line's \r keeps it (found by FuzzMatch).
        assert_eq!(whole_lines("0\r", 0, 2), "0\r");
        assert_eq!(whole_lines("0\r\n1", 0, 1), "0");
    }
}
