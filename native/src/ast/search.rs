//! Matching one source against a [`Matcher`] and describing the result.
use super::compile::{Literal, Matcher, Rule};
use super::parse::{self, Control, ParseFail, Stop};
use ast_grep_config::RuleCore;
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

/// One node of a capture. Its text is the source between `start` and
/// `end`, except for a transformed variable, which has text of its own.
#[derive(Clone)]
pub struct CapturedNode {
    pub start: Pos,
    pub end: Pos,
    pub own_text: Option<String>,
}

/// A captured metavariable; `multi` for `$$$NAME`; `transformed` for a
/// variable of a rule's `transform`, whose one node carries only its text.
#[derive(Clone)]
pub struct Capture {
    pub name: String,
    pub multi: bool,
    pub transformed: bool,
    pub nodes: Vec<CapturedNode>,
}

/// The edit a rewrite rule makes for one match.
#[derive(Clone)]
pub struct Edit {
    pub start: u64,
    pub end: u64,
    pub replacement: Vec<u8>,
}

/// One match; its text is the source between `start` and `end`.
#[derive(Clone)]
pub struct Match {
    pub rule: u32,
    pub start: Pos,
    pub end: Pos,
    /// The byte range of the whole source lines the match touches (without
    /// the final newline).
    pub lines: (usize, usize),
    pub captures: Vec<Capture>,
    pub edit: Option<Edit>,
}

/// A stretch of the source, kept in a record for the texts of its matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Byte offset of `bytes` in the source.
    pub offset: usize,
    pub bytes: Vec<u8>,
}

impl Segment {
    fn end(&self) -> usize {
        self.offset + self.bytes.len()
    }
}

/// The outcome for one input.
#[derive(Clone)]
pub struct FileRecord {
    pub status: Status,
    pub syntax_error: bool,
    /// Error text, or where the first syntax error is.
    pub message: String,
    pub matches: Vec<Match>,
    /// The source the matches' texts, lines and captures refer to, once:
    /// the union of their ranges in offset order, without overlaps. Texts
    /// are sent as ranges into it, so nested matches (each holding the
    /// next) or many matches on one long line stay linear in size.
    pub source: Vec<Segment>,
}

impl FileRecord {
    pub fn new(status: Status, message: impl Into<String>) -> FileRecord {
        FileRecord {
            status,
            syntax_error: false,
            message: message.into(),
            matches: Vec::new(),
            source: Vec::new(),
        }
    }

    /// Keeps the stretches of `src` that the matches refer to.
    pub fn keep_source(&mut self, src: &[u8]) {
        let mut spans: Vec<(usize, usize)> = Vec::with_capacity(self.matches.len());
        for m in &self.matches {
            // The lines hold the match's own text.
            spans.push(m.lines);
            for c in &m.captures {
                for n in c.nodes.iter().filter(|n| n.own_text.is_none()) {
                    spans.push((n.start.offset as usize, n.end.offset as usize));
                }
            }
        }
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (lo, hi) in spans {
            match merged.last_mut() {
                Some(last) if lo <= last.1 + SEGMENT_GAP => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        self.source = merged
            .into_iter()
            .map(|(lo, hi)| Segment {
                offset: lo,
                bytes: src[lo..hi].to_vec(),
            })
            .collect();
    }

    /// Adds the segments of another record of the same source (the two may
    /// overlap or touch); the result stays ordered and without overlaps.
    pub fn add_source(&mut self, more: Vec<Segment>) {
        let mut all = std::mem::take(&mut self.source);
        all.extend(more);
        all.sort_by_key(|s| s.offset);
        for s in all {
            match self.source.last_mut() {
                Some(last) if s.offset <= last.end() => {
                    let skip = last.end() - s.offset;
                    if skip < s.bytes.len() {
                        last.bytes.extend_from_slice(&s.bytes[skip..]);
                    }
                }
                _ => self.source.push(s),
            }
        }
    }

    /// Estimated bytes the record holds (for the cache's budget).
    pub fn cost(&self) -> usize {
        let mut n = 64 + self.message.len();
        for s in &self.source {
            n += 32 + s.bytes.len();
        }
        for m in &self.matches {
            n += 96 + m.edit.as_ref().map_or(0, |e| 32 + e.replacement.len());
            for c in &m.captures {
                n += 48 + c.name.len();
                for x in &c.nodes {
                    n += 56 + x.own_text.as_ref().map_or(0, |t| t.len());
                }
            }
        }
        n
    }

    /// The kept source between two offsets; `None` when it was not kept.
    pub fn text(&self, lo: usize, hi: usize) -> Option<&str> {
        if lo == hi {
            return Some("");
        }
        let i = self.source.partition_point(|s| s.offset <= lo);
        let s = &self.source[i.checked_sub(1)?];
        if hi > s.end() {
            return None;
        }
        std::str::from_utf8(&s.bytes[lo - s.offset..hi - s.offset]).ok()
    }
}

/// Ranges closer than this many bytes are kept as one segment: a few bytes
/// copied are cheaper than a segment's header and lookup.
const SEGMENT_GAP: usize = 64;

/// Checks for a stop request every this many visited nodes or described
/// matches, so a huge file cannot outlive its deadline by much.
const STOP_CHECK_EVERY: usize = 4096;

/// Character columns and line texts for one source, computed from an
/// index built once instead of rescanning the line for every position
/// (quadratic on minified one-line files).
struct Positions<'s> {
    src: &'s str,
    /// Byte offset where each line starts (line 0 at 0).
    line_starts: Vec<usize>,
    /// Characters before each BLOCK-byte block.
    block_chars: Vec<u32>,
    /// Whether each block is ASCII, where characters are bytes.
    block_ascii: Vec<bool>,
}

const BLOCK: usize = 256;

/// Counts the characters (bytes that do not continue a UTF-8 sequence).
fn count_chars(b: &[u8]) -> usize {
    b.iter()
        .filter(|&&c| c & 0b1100_0000 != 0b1000_0000)
        .count()
}

impl<'s> Positions<'s> {
    fn new(src: &'s str) -> Self {
        let b = src.as_bytes();
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', b).map(|i| i + 1));
        let mut block_chars = Vec::with_capacity(b.len() / BLOCK + 1);
        let mut block_ascii = Vec::with_capacity(b.len() / BLOCK + 1);
        let mut n = 0u32;
        for chunk in b.chunks(BLOCK) {
            block_chars.push(n);
            let ascii = chunk.is_ascii();
            block_ascii.push(ascii);
            n += if ascii {
                chunk.len()
            } else {
                count_chars(chunk)
            } as u32;
        }
        block_chars.push(n);
        block_ascii.push(true);
        Positions {
            src,
            line_starts,
            block_chars,
            block_ascii,
        }
    }

    /// Characters in the source before byte `at`.
    fn chars_before(&self, at: usize) -> usize {
        let k = at / BLOCK;
        let within = if self.block_ascii[k] {
            at - k * BLOCK
        } else {
            count_chars(&self.src.as_bytes()[k * BLOCK..at])
        };
        self.block_chars[k] as usize + within
    }

    /// Start of the line holding byte `at`.
    fn line_start(&self, at: usize) -> usize {
        self.line_starts[self.line_starts.partition_point(|&s| s <= at) - 1]
    }

    /// The position of byte `at` on tree-sitter row `line`; the column
    /// counts characters back to the previous newline, as ast-grep does.
    fn pos(&self, line: usize, at: usize) -> Pos {
        let column = self.chars_before(at) - self.chars_before(self.line_start(at));
        Pos {
            line: line as u32,
            column: column as u32,
            offset: at as u64,
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
    match decode_source(data) {
        Ok(src) => search_source(m, src, want, ctl),
        Err(rec) => (rec, None),
    }
}

/// Checks that `data` is text (no NUL near the start, valid UTF-8).
pub fn decode_source(data: Vec<u8>) -> Result<String, FileRecord> {
    let probe = &data[..data.len().min(BINARY_PROBE)];
    if memchr::memchr(0, probe).is_some() {
        return Err(FileRecord::new(
            Status::Binary,
            "binary file (contains NUL bytes)",
        ));
    }
    String::from_utf8(data).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        FileRecord::new(
            Status::NotUtf8,
            format!("not valid UTF-8 (first bad byte at offset {at})"),
        )
    })
}

/// Parses and matches a UTF-8 source.
pub fn search_source(
    m: &Matcher,
    src: String,
    want: &Want,
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    // Only the declarations that can hold a match, when the language and
    // the rules allow it (see split); never for rewrites, whose result is
    // checked against the syntax errors of the whole file.
    let _busy = super::parallel::Busy::enter(1);
    let plan = if want.prefilter && !want.edits {
        let cut = super::parallel::would_cut(src.len());
        super::split::plan(m, src.as_bytes(), cut)
    } else {
        super::split::Plan::Whole
    };
    if let Some(done) = super::parallel::search(m, &src, &plan, want, ctl) {
        return done;
    }
    let parsed = match plan {
        super::split::Plan::Whole | super::split::Plan::Declarations(_) => {
            parse_source(m, src, ctl)
        }
        super::split::Plan::Nothing => return (FileRecord::new(Status::Searched, ""), None),
        super::split::Plan::Parts(parts) => {
            let ranges = super::split::ts_ranges(src.as_bytes(), &parts);
            match parse::parse_parts(m.lang, src, &ranges, ctl) {
                // A part with a syntax error: tree-sitter's recovery may
                // depend on what surrounds it, so the whole file decides.
                Ok(r) if r.root().get_inner_node().has_error() => {
                    parse_source(m, r.get_text().to_string(), ctl)
                }
                Ok(r) => Ok(r),
                Err(ParseFail::Stopped(s)) => Err((FileRecord::new(Status::Stopped, ""), Some(s))),
                Err(ParseFail::Failed(msg)) => {
                    Err((FileRecord::new(Status::ParseFailed, msg), None))
                }
            }
        }
    };
    match parsed {
        Ok(root) => search_doc(m, &root, want, ctl),
        Err(fail) => fail,
    }
}

/// Parses a UTF-8 source for `m`'s language; on failure, the record to
/// report.
pub fn parse_source(
    m: &Matcher,
    src: String,
    ctl: &Control,
) -> Result<Parsed, (FileRecord, Option<Stop>)> {
    match parse::parse(m.lang, src, ctl) {
        Ok(r) => Ok(r),
        Err(ParseFail::Stopped(s)) => Err((FileRecord::new(Status::Stopped, ""), Some(s))),
        Err(ParseFail::Failed(msg)) => Err((FileRecord::new(Status::ParseFailed, msg), None)),
    }
}

/// A parsed source.
pub type Parsed = super::cache::Doc;

/// Matches a parsed source.
pub fn search_doc(
    m: &Matcher,
    root: &Parsed,
    want: &Want,
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    let mut rec = FileRecord::new(Status::Searched, "");
    // ast-grep passes over empty files: no match, not even the root.
    if root.get_text().is_empty() {
        return (rec, None);
    }
    let top = root.root();
    let inner = top.get_inner_node();
    if inner.has_error() {
        rec.syntax_error = true;
        rec.message = first_error(inner);
    }
    let source = root.get_text();
    let prune = want.prefilter && m.prefilter;
    let mut positions: Option<Positions> = None;
    // A node matched by two alternatives of one rule (see ambiguity) is
    // reported once; two nodes with the same range (an expression
    // statement and its expression) are two matches, as in ast-grep.
    let mut seen: HashSet<(u32, usize, usize, u16)> = HashSet::new();
    for (ri, rule) in m.rules.iter().enumerate() {
        let hits = if prune && rule.engine.is_none() {
            anchor(rule, source.as_bytes())
        } else {
            None
        };
        let found = match (&rule.engine, hits) {
            // ast-grep's rule engine: every node, as `sg scan` visits them
            // (the rule's own kind set skips most without matching).
            (Some(e), _) => find_engine(&top, &e.core, ctl),
            (None, Some((hits, len))) => find_pruned(&top, &rule.patterns, &hits, len, ctl),
            (None, None) => find_every(&top, &rule.patterns, ctl),
        };
        let found = match found {
            Ok(f) => f,
            Err(s) => return (FileRecord::new(Status::Stopped, ""), Some(s)),
        };
        if found.is_empty() {
            continue;
        }
        // Built once per file, and only for files with a match: most parsed
        // files have none, and the index costs a pass over the source.
        let positions = positions.get_or_insert_with(|| Positions::new(source));
        for (k, nm) in found.into_iter().enumerate() {
            if k % STOP_CHECK_EVERY == STOP_CHECK_EVERY - 1 {
                if let Some(s) = ctl.stopped() {
                    return (FileRecord::new(Status::Stopped, ""), Some(s));
                }
            }
            let range = nm.get_node().range();
            if !seen.insert((ri as u32, range.start, range.end, nm.get_node().kind_id())) {
                continue;
            }
            let edit = if !want.edits {
                None
            } else if let Some(engine) = &rule.engine {
                // As `sg scan --update-all`: the rule's fix, over the
                // matched node widened by the fix's expandStart/expandEnd.
                engine
                    .fix
                    .as_ref()
                    .map(|fix| nm.make_edit(&engine.core, fix))
            } else {
                // The whole matched node is replaced, as ast-grep's CLI
                // and the reference agent do (`replace_by`).
                rule.fix.as_ref().map(|fix| nm.replace_by(fix))
            };
            let edit = edit.map(|e| Edit {
                start: e.position as u64,
                end: (e.position + e.deleted_length) as u64,
                replacement: e.inserted_text,
            });
            let m = describe(ri as u32, &nm, positions, want.captures, edit);
            rec.matches.push(m);
        }
        if let Some(s) = ctl.stopped() {
            rec.status = Status::Stopped;
            rec.matches.clear();
            return (rec, Some(s));
        }
    }
    rec.matches
        .sort_by_key(|m| (m.start.offset, m.end.offset, m.rule));
    rec.keep_source(source.as_bytes());
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
    ctl: &Control,
) -> Result<Vec<NodeMatch<'r, Doc>>, Stop> {
    let kinds: Vec<_> = patterns.iter().map(|p| p.potential_kinds()).collect();
    let root = top.root();
    let holds = |n: &tree_sitter::Node| {
        let i = hits.partition_point(|&at| at < n.start_byte());
        i < hits.len() && hits[i] + len <= n.end_byte()
    };
    let mut out = Vec::new();
    // One cursor, pre-order, entering only nodes that hold a hit: no node
    // list is built per visited node. `ends` holds the end of each
    // ancestor of the cursor's node, so that once no hit is left before
    // the parent's end its remaining children are not looked at.
    let mut cursor = top.get_inner_node().walk();
    if !holds(&cursor.node()) {
        return Ok(out);
    }
    let mut ends: Vec<usize> = Vec::new();
    let mut visited = 0usize;
    'visit: loop {
        visited += 1;
        if visited.is_multiple_of(STOP_CHECK_EVERY) {
            if let Some(s) = ctl.stopped() {
                return Err(s);
            }
        }
        let node = cursor.node();
        let kind = usize::from(node.kind_id());
        for (p, k) in patterns.iter().zip(&kinds) {
            if k.as_ref().is_some_and(|k| !k.contains(kind)) {
                continue;
            }
            if let Some(nm) = p.match_node(root.adopt(node)) {
                out.push(nm);
            }
        }
        if cursor.goto_first_child() {
            ends.push(node.end_byte());
            loop {
                if holds(&cursor.node()) {
                    continue 'visit;
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
            cursor.goto_parent();
            ends.pop();
        }
        // This node's subtree is done: on to the next sibling that holds a
        // hit, climbing as far as needed.
        loop {
            let done = cursor.node().end_byte();
            let next = hits.partition_point(|&at| at < done);
            let more = ends
                .last()
                .is_some_and(|&end| next < hits.len() && hits[next] + len <= end);
            if more {
                while cursor.goto_next_sibling() {
                    if holds(&cursor.node()) {
                        continue 'visit;
                    }
                }
            }
            if !cursor.goto_parent() {
                return Ok(out);
            }
            ends.pop();
        }
    }
}

/// Every match of the patterns in the tree (ast-grep's full walk, one per
/// pattern), checking for a stop request as it goes.
fn find_every<'r>(
    top: &Node<'r, Doc>,
    patterns: &[Pattern],
    ctl: &Control,
) -> Result<Vec<NodeMatch<'r, Doc>>, Stop> {
    let mut out = Vec::new();
    for p in patterns {
        for (k, nm) in top.find_all(p).enumerate() {
            if k % STOP_CHECK_EVERY == STOP_CHECK_EVERY - 1 {
                if let Some(s) = ctl.stopped() {
                    return Err(s);
                }
            }
            out.push(nm);
        }
        if let Some(s) = ctl.stopped() {
            return Err(s);
        }
    }
    Ok(out)
}

/// Every match of an engine rule: the rule is tried on every node of a kind
/// it can match, in the pre-order `sg scan` visits them, checking for a
/// stop request every [`STOP_CHECK_EVERY`] nodes (a relational rule can
/// make one node's match walk a whole subtree, so matches alone are too
/// rare a clock).
fn find_engine<'r>(
    top: &Node<'r, Doc>,
    rule: &RuleCore,
    ctl: &Control,
) -> Result<Vec<NodeMatch<'r, Doc>>, Stop> {
    let kinds = rule.potential_kinds();
    let mut out = Vec::new();
    for (visited, node) in top.dfs().enumerate() {
        if visited % STOP_CHECK_EVERY == STOP_CHECK_EVERY - 1 {
            if let Some(s) = ctl.stopped() {
                return Err(s);
            }
        }
        if kinds
            .as_ref()
            .is_some_and(|k| !k.contains(usize::from(node.kind_id())))
        {
            continue;
        }
        if let Some(nm) = rule.match_node(node) {
            out.push(nm);
        }
    }
    if let Some(s) = ctl.stopped() {
        return Err(s);
    }
    Ok(out)
}

fn pos_of(node: &Node<Doc>, start: bool, at: &Positions) -> Pos {
    if start {
        at.pos(node.start_pos().line(), node.range().start)
    } else {
        at.pos(node.end_pos().line(), node.range().end)
    }
}

fn describe(
    rule: u32,
    nm: &NodeMatch<Doc>,
    at: &Positions,
    want_caps: bool,
    edit: Option<Edit>,
) -> Match {
    let node = nm.get_node();
    let range = node.range();
    let captures = if want_caps {
        captures(nm, at)
    } else {
        Vec::new()
    };
    Match {
        rule,
        start: pos_of(node, true, at),
        end: pos_of(node, false, at),
        lines: whole_lines(at.src, range.start, range.end),
        captures,
        edit,
    }
}

fn captures(nm: &NodeMatch<Doc>, at: &Positions) -> Vec<Capture> {
    let env = nm.get_env();
    let mut out: Vec<Capture> = Vec::new();
    for var in env.get_matched_variables() {
        let (name, multi, nodes) = match var {
            MetaVariable::Capture(name, _) => {
                let nodes: Vec<_> = env.get_match(&name).into_iter().cloned().collect();
                if nodes.is_empty() {
                    if let Some(bytes) = env.get_transformed(&name) {
                        let text = String::from_utf8_lossy(bytes).into_owned();
                        out.push(Capture {
                            name,
                            multi: false,
                            transformed: true,
                            nodes: vec![CapturedNode {
                                start: Pos::default(),
                                end: Pos::default(),
                                own_text: Some(text),
                            }],
                        });
                        continue;
                    }
                }
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
                start: pos_of(n, true, at),
                end: pos_of(n, false, at),
                own_text: None,
            })
            .collect();
        out.push(Capture {
            name,
            multi,
            transformed: false,
            nodes,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The byte range of the source lines touched by `start..end`, without the
/// last newline; a `\r` before it stays, as in ast-grep's output.
fn whole_lines(src: &str, start: usize, end: usize) -> (usize, usize) {
    let b = src.as_bytes();
    let lo = memchr::memrchr(b'\n', &b[..start]).map_or(0, |i| i + 1);
    let hi = memchr::memchr(b'\n', &b[end.max(lo)..]).map_or(b.len(), |i| end.max(lo) + i);
    (lo, hi.max(lo))
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
pub(crate) mod tests {
    use super::*;
    use crate::ast::compile::{Matcher, RuleSpec};
    use ast_grep_core::MatchStrictness;

    /// A match's text, from the source its record kept.
    pub fn match_text<'r>(r: &'r FileRecord, m: &Match) -> &'r str {
        r.text(m.start.offset as usize, m.end.offset as usize)
            .expect("the match's text is kept")
    }

    fn run(lang: SupportLang, pat: &str, out: Option<&str>, src: &str) -> FileRecord {
        let spec = RuleSpec {
            pattern: pat.into(),
            rewrite: out.map(String::from),
            config: None,
        };
        run_spec(lang, spec, src)
    }

    /// Searches `src` with one rule, captures and edits on.
    fn run_spec(lang: SupportLang, spec: RuleSpec, src: &str) -> FileRecord {
        let m = Matcher::new(lang, &[spec], MatchStrictness::Smart)
            .unwrap_or_else(|e| panic!("{}", e.message));
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
        assert_eq!(match_text(&r, m), "console.log(a, b)");
        assert_eq!(r.text(m.lines.0, m.lines.1), Some("console.log(a, b);"));
        assert_eq!(m.captures[0].name, "ARGS");
        assert!(m.captures[0].multi);
        let e = m.edit.as_ref().unwrap();
        assert_eq!(
            String::from_utf8(e.replacement.clone()).unwrap(),
            "logger.info(a, b)"
        );
    }

    #[test]
    fn bash_crash_shape_is_not_parsed() {
        // Found by FuzzMatch: this input segfaults tree-sitter-bash 0.25.1.
        let want = Want {
            captures: false,
            edits: false,
            prefilter: false,
        };
        let ctl = Control {
            cancel: None,
            deadline: None,
        };
        let m = Matcher::new(
            SupportLang::Bash,
            &[RuleSpec {
                pattern: "echo $A".into(),
                rewrite: None,
                config: None,
            }],
            MatchStrictness::Smart,
        )
        .unwrap();
        let src = "{{{{{{{{\u{6aa91}".as_bytes().to_vec();
        let r = search_bytes(&m, src, &want, &ctl).0;
        assert_eq!(r.status, Status::ParseFailed);
        assert!(r.message.contains("issue 337"), "{}", r.message);
        // Scripts without the shape still parse.
        let r = run(SupportLang::Bash, "echo $A", None, "f() {\n  echo hi\n}\n");
        assert_eq!(r.matches.len(), 1);
        // A pattern of that shape is refused before it is parsed.
        assert!(Matcher::new(
            SupportLang::Bash,
            &[RuleSpec {
                pattern: "{\u{31860}".into(),
                rewrite: None,
                config: None,
            }],
            MatchStrictness::Smart,
        )
        .is_err());
    }

    fn run_engine(lang: SupportLang, doc: &str, src: &str) -> FileRecord {
        let spec = RuleSpec {
            pattern: String::new(),
            rewrite: None,
            config: Some(doc.into()),
        };
        run_spec(lang, spec, src)
    }

    #[test]
    fn engine_rule_relational_captures_and_fix() {
        let doc = "id: r\nlanguage: python\nrule:\n  pattern: print($A)\n  inside:\n    kind: function_definition\n    stopBy: end\nfix: log($A)\n";
        let r = run_engine(
            SupportLang::Python,
            doc,
            "def f():\n    print(1)\nprint(2)\n",
        );
        assert_eq!(r.status, Status::Searched);
        assert_eq!(r.matches.len(), 1);
        let m = &r.matches[0];
        assert_eq!(match_text(&r, m), "print(1)");
        assert_eq!(m.captures[0].name, "A");
        let n = &m.captures[0].nodes[0];
        assert_eq!(
            r.text(n.start.offset as usize, n.end.offset as usize),
            Some("1")
        );
        let e = m.edit.as_ref().unwrap();
        assert_eq!((e.start, e.end), (13, 21));
        assert_eq!(e.replacement, b"log(1)");
    }

    #[test]
    fn engine_rule_fix_expands_and_constraints_filter() {
        // expandEnd widens the replaced range past the comma, as sg does.
        let doc = r#"{"id": "r", "language": "javascript", "rule": {"kind": "number", "inside": {"kind": "arguments"}}, "constraints": {}, "fix": {"template": "", "expandEnd": {"regex": ","}}}"#;
        let r = run_engine(SupportLang::JavaScript, doc, "f(1, 2)\n");
        let edits: Vec<(u64, u64)> = r
            .matches
            .iter()
            .map(|m| {
                let e = m.edit.as_ref().unwrap();
                (e.start, e.end)
            })
            .collect();
        assert_eq!(edits, vec![(2, 4), (5, 6)]);
        let doc = "id: r\nlanguage: go\nrule:\n  pattern: f($A)\nconstraints:\n  A: {kind: int_literal}\n";
        let r = run_engine(SupportLang::Go, doc, "package p\nvar a, b = f(1), f(x)\n");
        assert_eq!(r.matches.len(), 1);
        assert_eq!(match_text(&r, &r.matches[0]), "f(1)");
    }

    #[test]
    fn engine_rule_literals_skip_files() {
        let doc = "id: r\nlanguage: python\nrule:\n  all:\n    - pattern: print($A)\n    - inside: {kind: function_definition, stopBy: end}\n";
        let r = run_engine(SupportLang::Python, doc, "def f():\n    log(1)\n");
        assert_eq!(r.status, Status::Skipped);
        let r = run_engine(SupportLang::Python, doc, "def f():\n    print(1)\n");
        assert_eq!(r.matches.len(), 1);
        // No plain pattern every match must match: nothing is skipped.
        let doc = "id: r\nlanguage: python\nrule:\n  any: [{pattern: print($A)}, {kind: lambda}]\n";
        let r = run_engine(SupportLang::Python, doc, "x = 1\n");
        assert_eq!(r.status, Status::Searched);
    }

    #[test]
    fn engine_rule_errors_say_why() {
        let err = |lang, doc: &str| {
            Matcher::new(
                lang,
                &[RuleSpec {
                    pattern: String::new(),
                    rewrite: None,
                    config: Some(doc.into()),
                }],
                MatchStrictness::Smart,
            )
            .err()
            .map(|e| e.message)
            .unwrap_or_default()
        };
        let e = err(
            SupportLang::Go,
            "id: r\nlanguage: go\nrule: {kind: no_such_kind}\n",
        );
        assert!(e.contains("no_such_kind"), "{e}");
        let e = err(SupportLang::Go, "id: r\nlanguage: go\nrule: {regex: x}\n");
        assert!(e.contains("Try adding `kind` rule"), "{e}");
        let e = err(
            SupportLang::Go,
            "id: r\nlanguage: python\nrule: {kind: call}\n",
        );
        assert!(e.contains("language"), "{e}");
        let e = err(
            SupportLang::Go,
            "id: r\nlanguage: go\nrule: {kind: call_expression, nope: 1}\n",
        );
        assert!(e.contains("nope"), "{e}");
        let e = err(
            SupportLang::Go,
            "id: r\nlanguage: go\nrule: {pattern: f($A)}\nfix: g($B)\n",
        );
        assert!(e.contains("B"), "{e}");
        let e = err(
            SupportLang::Go,
            "id: r\nlanguage: go\nfiles: [a.go]\nrule: {kind: call_expression}\n",
        );
        assert!(e.contains("files"), "{e}");
        let e = err(SupportLang::Go, "rule: [");
        assert!(e.contains("cannot read the rule"), "{e}");
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

    fn wl(src: &str, start: usize, end: usize) -> &str {
        let (lo, hi) = whole_lines(src, start, end);
        &src[lo..hi]
    }

    #[test]
    fn positions_match_ast_grep_columns() {
        let src = "a\u{e9}b\nxy\u{1F600}z\n\nq";
        let at = Positions::new(src);
        for off in 0..=src.len() {
            if !src.is_char_boundary(off) {
                continue;
            }
            // ast-grep's rule: characters back to the previous newline.
            let want =
                count_chars(&src.as_bytes()[src[..off].rfind('\n').map_or(0, |i| i + 1)..off]);
            assert_eq!(at.pos(0, off).column as usize, want, "offset {off}");
        }
        // Long lines cross the block index.
        let long = "\u{e9}".repeat(1000) + "x";
        let at = Positions::new(&long);
        assert_eq!(at.pos(0, long.len() - 1).column, 1000);
        // ASCII blocks (counted as bytes) next to blocks that are not.
        let mixed =
            "x".repeat(300) + "\u{e9}\n" + &"y".repeat(600) + "\u{1F600}" + &"z".repeat(300);
        let at = Positions::new(&mixed);
        for off in (0..=mixed.len()).filter(|&o| mixed.is_char_boundary(o)) {
            let want =
                count_chars(&mixed.as_bytes()[mixed[..off].rfind('\n').map_or(0, |i| i + 1)..off]);
            assert_eq!(at.pos(0, off).column as usize, want, "offset {off}");
        }
    }

    #[test]
    fn same_lines_stored_once() {
        let src = "f(1); f(2); f(3);\n";
        let r = run(SupportLang::JavaScript, "f($A)", None, src);
        assert_eq!(r.matches.len(), 3);
        assert_eq!(
            r.source,
            vec![Segment {
                offset: 0,
                bytes: b"f(1); f(2); f(3);".to_vec()
            }]
        );
        assert!(r.matches.iter().all(|m| m.lines == (0, 17)));
    }

    #[test]
    fn same_range_nodes_are_two_matches_and_empty_files_none() {
        // `x = 1` is an expression statement holding an assignment of the
        // same range: ast-grep reports both.
        let r = run(SupportLang::Python, "$A", None, "x = 1\n");
        let texts: Vec<&str> = r.matches.iter().map(|m| match_text(&r, m)).collect();
        assert_eq!(texts, vec!["x", "x = 1", "x = 1", "x = 1\n", "1"]);
        let r = run(SupportLang::Python, "$A", None, "");
        assert_eq!((r.status, r.matches.len()), (Status::Searched, 0));
        let r = run_engine(
            SupportLang::Python,
            "id: m\nlanguage: python\nrule:\n  kind: module\n",
            "",
        );
        assert_eq!(r.matches.len(), 0);
    }

    #[test]
    fn nested_matches_keep_the_source_once() {
        let n = 300;
        let src = format!(
            "package p\nfunc f() {{\n{}{}}}\n",
            "if x {\n".repeat(n),
            "}\n".repeat(n)
        );
        let r = run(SupportLang::Go, "if $C { $$$B }", None, &src);
        assert_eq!(r.matches.len(), n);
        let kept: usize = r.source.iter().map(|s| s.bytes.len()).sum();
        assert!(kept <= src.len(), "{kept} bytes kept of {}", src.len());
        for m in &r.matches {
            let (lo, hi) = (m.start.offset as usize, m.end.offset as usize);
            assert_eq!(match_text(&r, m), &src[lo..hi]);
            assert_eq!(
                r.text(m.lines.0, m.lines.1),
                Some(&src[m.lines.0..m.lines.1])
            );
            for c in &m.captures {
                for x in &c.nodes {
                    let (lo, hi) = (x.start.offset as usize, x.end.offset as usize);
                    assert_eq!(r.text(lo, hi), Some(&src[lo..hi]));
                }
            }
        }
    }

    #[test]
    fn sources_of_two_records_merge() {
        let seg = |offset: usize, b: &str| Segment {
            offset,
            bytes: b.as_bytes().to_vec(),
        };
        let mut r = FileRecord::new(Status::Searched, "");
        r.source = vec![seg(0, "abc"), seg(10, "klm")];
        r.add_source(vec![seg(2, "cde"), seg(20, "uv"), seg(11, "l")]);
        assert_eq!(
            r.source,
            vec![seg(0, "abcde"), seg(10, "klm"), seg(20, "uv")]
        );
        assert_eq!(r.text(1, 5), Some("bcde"));
        assert_eq!(r.text(12, 13), Some("m"));
        assert_eq!(r.text(12, 14), None);
        assert_eq!(r.text(5, 6), None);
        assert_eq!(r.text(7, 7), Some(""));
    }

    #[test]
    fn whole_lines_bounds() {
        assert_eq!(wl("ab\ncd\nef", 3, 5), "cd");
        // A CRLF line keeps its \r, as ast-grep's "lines" does.
        assert_eq!(wl("ab\r\ncd", 0, 1), "ab\r");
        assert_eq!(wl("", 0, 0), "");
        assert_eq!(wl("0\r", 0, 2), "0\r");
        assert_eq!(wl("0\r\n1", 0, 1), "0\r");
    }
}
