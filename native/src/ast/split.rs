//! Parsing only the top-level declarations that can hold a match.
//!
//! Once the literal prefilter has let a file through, parsing it is the
//! whole cost of a search, yet most of the file usually cannot hold a
//! match: a match lies inside one top-level declaration, and that
//! declaration must contain every literal token of the rule (the argument
//! the file prefilter rests on, applied to a part of the file). For Go,
//! Rust, TypeScript, JavaScript and Python, whose top level is a flat list
//! of declarations and statements, a file is cut before each line that
//! starts one (in the first column, outside strings, comments and
//! brackets), and tree-sitter parses only the parts that hold the literals,
//! through its included ranges: nodes keep the byte offsets and points of
//! the whole file, so matches are reported exactly as from a full parse.
//!
//! C is not cut: its headers are full of macros tree-sitter cannot read,
//! and its error recovery then reaches across declarations, so parts
//! parsed alone gave other matches than the whole file (measured on
//! /usr/include; most parts also had errors, so nothing was saved).
//!
//! A part parse with a syntax error is thrown away for a parse of the
//! whole file (tree-sitter's error recovery depends on the context), so
//! the saving is for files whose kept parts are well formed.
//!
//! A cut is only made where the lexer is sure: an unbalanced bracket (a
//! file with syntax errors) stops further cuts, leaving larger parts, and
//! the brace languages other than Go cut only after a `;` or `}` (a
//! complete item), Python never between a decorator and its definition.

use super::compile::Matcher;
use ast_grep_language::SupportLang;
use std::ops::Range;

/// What to parse of a file.
#[derive(Debug, PartialEq)]
pub enum Plan {
    /// The whole file.
    Whole,
    /// The whole file, whose top-level declarations start at these offsets
    /// (0 first): parts would save too little, but the file can still be
    /// cut between them to be parsed on several threads (chunks).
    Declarations(Vec<usize>),
    /// Only these byte ranges: ascending, disjoint, not empty.
    Parts(Vec<Range<usize>>),
    /// Nothing: no declaration holds every literal of any rule.
    Nothing,
}

/// Above this share of the file's bytes, parsing parts saves too little to
/// be worth the loss of syntax-error reports for the rest.
const WORTH: f64 = 0.8;

/// Kept parts closer than this many bytes are parsed as one range (4 KiB
/// took a third off the GOROOT gains: Go declarations are about that size).
const MIN_GAP: usize = 512;

/// Above this many ranges, parsing the whole file is cheaper (measured: 250
/// ranges of a 2 MB Go file 0.03 s against 1.3 s whole; 1,000 of a 4 MB one
/// no faster than whole; 25,000 four to six times slower).
const MAX_PARTS: usize = 256;

/// Decides what of `src` to parse for `m`; with `declarations`, a file
/// parsed whole is still cut into its declarations ([`Plan::Declarations`],
/// for [`chunks`]) where the language allows it.
pub fn plan(m: &Matcher, src: &[u8], declarations: bool) -> Plan {
    if !m.prefilter || !rules_split(m) || lexer(m.lang).is_none() {
        return Plan::Whole;
    }
    if !declarations && parts_cannot_pay(m, src) {
        return Plan::Whole;
    }
    let Some(starts) = decl_starts(m.lang, src) else {
        return Plan::Whole;
    };
    if starts.len() < 2 {
        return Plan::Whole;
    }
    let mut parts: Vec<Range<usize>> = Vec::new();
    let mut kept = 0usize;
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(src.len());
        let decl = &src[start..end];
        let holds = m
            .rules
            .iter()
            .any(|r| r.literals.iter().all(|l| l.found_in(decl)));
        if !holds {
            continue;
        }
        match parts.last_mut() {
            // Close parts become one (the declarations between them are
            // parsed too): tree-sitter's cost grows with the number of
            // included ranges (25,000 one-line parts parsed 4–6× slower than
            // the whole 2 MB file).
            Some(last) if start - last.end < MIN_GAP => {
                kept += end - last.end;
                last.end = end;
            }
            _ => {
                kept += end - start;
                parts.push(start..end);
            }
        }
    }
    if parts.is_empty() {
        return Plan::Nothing;
    }
    if kept as f64 > WORTH * src.len() as f64 || parts.len() > MAX_PARTS {
        return Plan::Declarations(starts);
    }
    Plan::Parts(parts)
}

/// Whether the literals of `m`'s one rule lie so close together all over
/// `src` that [`plan`] cannot find a fifth of the file to skip, told
/// without its lexer (a byte-by-byte scan, about 2 % of a search of the
/// Python standard library for `def`, whose files hold the literal
/// everywhere). A declaration left out holds no occurrence of the literal,
/// so what is left out lies between two occurrences (or before the first,
/// or after the last), from a declaration start after the one to a
/// declaration start before the other, and is at least [`MIN_GAP`] bytes
/// long unless it is the file's head or tail. Declarations start at the
/// first column, so every line that starts with a character other than a
/// blank stands in for a start here (some are not, which only makes the
/// bound larger). `false` when that bound is a fifth of the file or more,
/// or when it cannot be told (several rules, or a rule with other than one
/// literal).
fn parts_cannot_pay(m: &Matcher, src: &[u8]) -> bool {
    let [rule] = m.rules.as_slice() else {
        return false;
    };
    // One literal only: with several, a declaration lacking any one of them
    // is left out, and no one literal's occurrences bound that.
    let [lit] = rule.literals.as_slice() else {
        return false;
    };
    let budget = ((1.0 - WORTH) * src.len() as f64) as usize;
    // A line that may start a declaration begins at `at`.
    let starts_line = |at: usize| {
        at == 0
            || src
                .get(at)
                .is_some_and(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    };
    // The first line start in `from+1..=to` that may start a declaration.
    let first_after = |from: usize, to: usize| -> Option<usize> {
        memchr::memchr_iter(b'\n', &src[from..to])
            .map(|k| from + k + 1)
            .find(|&at| starts_line(at))
    };
    // The last line start in `from..=to` that may start a declaration.
    let last_before = |from: usize, to: usize| -> usize {
        memchr::memrchr_iter(b'\n', &src[from..to])
            .map(|k| from + k + 1)
            .find(|&at| starts_line(at))
            .unwrap_or(from)
    };
    let mut could_skip = 0usize;
    let mut prev: Option<usize> = None;
    for at in lit.found_at(src) {
        could_skip += match prev {
            None => last_before(0, at),
            Some(p) => match first_after(p, at) {
                Some(from) => {
                    let gap = last_before(from, at) - from;
                    if gap >= MIN_GAP {
                        gap
                    } else {
                        0
                    }
                }
                None => 0,
            },
        };
        if could_skip >= budget {
            return false;
        }
        prev = Some(at);
    }
    let Some(last) = prev else {
        return false;
    };
    let tail = first_after(last, src.len()).map_or(0, |from| src.len() - from);
    could_skip + tail < budget
}

/// Below this many bytes to parse, a file is parsed on one thread: a
/// thread's start and a second parser cost more than they save.
pub const PARALLEL_MIN: usize = 32 * 1024;

/// Cuts what `plan` parses of `src` into at most `threads` groups of whole
/// top-level declarations of about the same size, to be parsed and searched
/// at the same time (each group is parsed alone, as the parts of a plan
/// are); `None` when the file is not worth it or cannot be cut (a plan of
/// `Whole`: the language or the rules do not allow parts).
pub fn chunks(src: &[u8], plan: &Plan, threads: usize) -> Option<Vec<Vec<Range<usize>>>> {
    if threads < 2 {
        return None;
    }
    let ranges: Vec<Range<usize>> = match plan {
        Plan::Whole | Plan::Nothing => return None,
        Plan::Parts(parts) => parts.clone(),
        Plan::Declarations(starts) => {
            if src.len() < PARALLEL_MIN {
                return None;
            }
            let mut r: Vec<Range<usize>> = starts.windows(2).map(|w| w[0]..w[1]).collect();
            r.push(*starts.last()?..src.len());
            r
        }
    };
    let total: usize = ranges.iter().map(|r| r.len()).sum();
    if total < PARALLEL_MIN || ranges.len() < 2 {
        return None;
    }
    // Consecutive declarations fill a group up to its share of the bytes.
    // A group of whole-file declarations is one range (adjacent ranges
    // joined): tree-sitter's cost grows with the number of ranges.
    let threads = threads.min(ranges.len());
    let share = total.div_ceil(threads);
    let mut groups: Vec<Vec<Range<usize>>> = vec![Vec::new()];
    let mut filled = 0usize;
    for r in ranges {
        if filled >= share && groups.len() < threads {
            groups.push(Vec::new());
            filled = 0;
        }
        filled += r.len();
        let g = groups.last_mut().expect("one group at least");
        match g.last_mut() {
            Some(last) if last.end == r.start => last.end = r.end,
            _ => g.push(r),
        }
    }
    if groups.len() < 2 {
        return None;
    }
    Some(groups)
}

/// Whether every rule of `m` can be matched part by part: a plain pattern
/// with literals whose root is smaller than a whole file.
fn rules_split(m: &Matcher) -> bool {
    const WHOLE: [&str; 7] = [
        "",
        "*",
        "ERROR",
        "source_file",
        "program",
        "module",
        "translation_unit",
    ];
    m.rules.iter().all(|r| {
        r.engine.is_none()
            && !r.literals.is_empty()
            && !r.root_kinds.is_empty()
            && r.root_kinds.iter().all(|k| !WHOLE.contains(&k.as_str()))
    })
}

/// How a language's top-level parts are found, for the languages that can
/// be cut. Not JavaScript or TSX: their JSX text can hold quotes and
/// backticks that are not literals, which no lexer short of a parser tells
/// apart.
enum Lexer {
    Brace(&'static Family),
    Python,
}

fn lexer(lang: SupportLang) -> Option<Lexer> {
    Some(match lang {
        SupportLang::Go => Lexer::Brace(&GO),
        SupportLang::Rust => Lexer::Brace(&RUST),
        SupportLang::TypeScript => Lexer::Brace(&JS),
        SupportLang::Python => Lexer::Python,
        _ => return None,
    })
}

/// Where the top-level parts of `src` start (0 first), for the languages
/// that can be cut.
pub fn decl_starts(lang: SupportLang, src: &[u8]) -> Option<Vec<usize>> {
    Some(match lexer(lang)? {
        Lexer::Brace(f) => brace_starts(src, f),
        Lexer::Python => python_starts(src),
    })
}

/// The lexical rules of a brace language, as far as cutting needs them.
struct Family {
    /// Words (or, ending in punctuation, prefixes) that start a top-level
    /// part at the beginning of a line.
    keywords: &'static [&'static [u8]],
    /// Cut only after a `;` or `}` (or at the start of the file).
    after_terminator: bool,
    /// `` ` `` opens a raw string without escapes (Go).
    backtick_raw: bool,
    /// `` ` `` opens a template literal with `${}` holes (JavaScript).
    template: bool,
    /// `"…"` strings may span lines (Rust).
    multiline_strings: bool,
    /// `'` opens a character literal or is a lifetime's tick (Rust).
    rust_ticks: bool,
    /// `r"…"`, `r#"…"#` and `br…` raw strings; nested block comments (Rust).
    rust_raw: bool,
    /// `/` can open a regular expression literal (JavaScript).
    regex: bool,
}

const GO: Family = Family {
    keywords: &[b"func", b"type", b"var", b"const", b"import"],
    after_terminator: false,
    backtick_raw: true,
    template: false,
    multiline_strings: false,
    rust_ticks: false,
    rust_raw: false,
    regex: false,
};

const RUST: Family = Family {
    keywords: &[
        b"fn",
        b"pub",
        b"impl",
        b"struct",
        b"enum",
        b"trait",
        b"mod",
        b"use",
        b"const",
        b"static",
        b"type",
        b"unsafe",
        b"async",
        b"extern",
        b"macro_rules!",
        b"union",
        b"#[",
        b"#!",
    ],
    after_terminator: true,
    backtick_raw: false,
    template: false,
    multiline_strings: true,
    rust_ticks: true,
    rust_raw: true,
    regex: false,
};

const JS: Family = Family {
    keywords: &[
        b"export",
        b"import",
        b"function",
        b"class",
        b"interface",
        b"type",
        b"const",
        b"let",
        b"var",
        b"enum",
        b"declare",
        b"namespace",
        b"abstract",
        b"async",
        b"@",
    ],
    after_terminator: true,
    backtick_raw: false,
    template: true,
    multiline_strings: false,
    rust_ticks: false,
    rust_raw: false,
    regex: true,
};

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The offsets where the top-level parts of a brace-language source
/// start: 0, then each line that starts with one of `f.keywords` at
/// bracket depth 0, outside comments and literals. Where the lexer may be
/// wrong (a string or regular expression left open at the end of its
/// line), cutting stops for the rest of the file.
fn brace_starts(src: &[u8], f: &Family) -> Vec<usize> {
    let n = src.len();
    let mut starts = vec![0];
    let mut depth: i64 = 0;
    // Depths at which the `${` holes of open template literals opened.
    let mut holes: Vec<i64> = Vec::new();
    // Per open `(`: whether it follows `if`, `while`, `for` or `with` (a
    // `/` after its `)` then starts a regular expression).
    let mut parens: Vec<bool> = Vec::new();
    let mut at_line_start = true;
    // The last byte of code seen (not space or comment); 0 at the start.
    let mut prev: u8 = 0;
    // The last word seen, when the last token was a word.
    let mut word: &[u8] = b"";
    // A `/` here would start a regular expression (JavaScript).
    let mut regex_ok = true;
    let mut unsure = false;
    let mut i = 0;
    while i < n {
        if at_line_start {
            at_line_start = false;
            if depth == 0
                && holes.is_empty()
                && !unsure
                && i > 0
                && (!f.after_terminator || matches!(prev, 0 | b';' | b'}'))
                && starts_decl(&src[i..], f.keywords)
            {
                starts.push(i);
            }
        }
        let c = src[i];
        match c {
            b'\n' => {
                at_line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'/' if src.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &src[i..]).map_or(n, |k| i + k);
                continue;
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                i = skip_block_comment(src, i, f.rust_raw);
                continue;
            }
            _ => {}
        }
        let mut next_regex_ok = true;
        let mut next_word: &[u8] = b"";
        match c {
            b'/' if f.regex && regex_ok => {
                let (end, closed) = skip_regex(src, i);
                unsure |= !closed;
                i = end;
                next_regex_ok = false;
            }
            b'"' => {
                let (end, closed) = skip_quoted(src, i, f.multiline_strings);
                unsure |= !closed;
                i = end;
                next_regex_ok = false;
            }
            b'\'' if f.rust_ticks => i = skip_tick(src, i),
            b'\'' => {
                let (end, closed) = skip_quoted(src, i, false);
                unsure |= !closed;
                i = end;
                next_regex_ok = false;
            }
            b'`' if f.backtick_raw => {
                i = memchr::memchr(b'`', &src[i + 1..]).map_or(n, |k| i + 1 + k + 1)
            }
            b'`' if f.template => {
                i = skip_template(src, i + 1, &mut holes, &mut depth);
                next_regex_ok = i >= 2 && &src[i - 2..i] == b"${";
            }
            b'(' => {
                parens.push(matches!(word, b"if" | b"while" | b"for" | b"with"));
                depth += 1;
                i += 1;
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' => {
                depth -= 1;
                i += 1;
                if holes.last() == Some(&depth) {
                    // The end of a template literal's `${…}` hole.
                    holes.pop();
                    i = skip_template(src, i, &mut holes, &mut depth);
                    next_regex_ok = i >= 2 && &src[i - 2..i] == b"${";
                }
            }
            b')' => {
                next_regex_ok = parens.pop().unwrap_or(false);
                depth -= 1;
                i += 1;
            }
            b']' => {
                next_regex_ok = false;
                depth -= 1;
                i += 1;
            }
            b'+' | b'-' if src.get(i + 1) == Some(&c) => {
                // `++`/`--`: after an operand (postfix) a `/` divides.
                next_regex_ok = !matches!(prev, b')' | b']') && !is_ident_byte(prev);
                i += 2;
            }
            b'r' | b'b' | b'c' if f.rust_raw && (i == 0 || !is_ident_byte(src[i - 1])) => {
                match rust_raw_end(src, i) {
                    Some(end) => {
                        i = end;
                        next_regex_ok = false;
                    }
                    None => {
                        let end = skip_ident(src, i);
                        next_word = &src[i..end];
                        i = end;
                    }
                }
            }
            c if is_ident_byte(c) => {
                let end = skip_ident(src, i);
                next_word = &src[i..end];
                next_regex_ok = is_regex_keyword(next_word);
                i = end;
            }
            _ => i += 1,
        }
        regex_ok = next_regex_ok;
        word = next_word;
        prev = src[i.saturating_sub(1).min(n - 1)];
    }
    starts
}

/// Whether a `/` after the word `w` starts a regular expression: after a
/// keyword that takes an expression (`return /x/`), not after a name.
fn is_regex_keyword(w: &[u8]) -> bool {
    matches!(
        w,
        b"return"
            | b"typeof"
            | b"instanceof"
            | b"in"
            | b"of"
            | b"new"
            | b"delete"
            | b"void"
            | b"throw"
            | b"case"
            | b"do"
            | b"else"
            | b"yield"
            | b"await"
    )
}

/// The offset after the identifier or number starting at `i`.
fn skip_ident(src: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < src.len() && is_ident_byte(src[j]) {
        j += 1;
    }
    j
}

/// The offset after the block comment opening at `i` (nested, when
/// `nested`).
fn skip_block_comment(src: &[u8], i: usize, nested: bool) -> usize {
    let mut level = 0usize;
    let mut j = i;
    while j + 1 < src.len() {
        if src[j] == b'/' && src[j + 1] == b'*' {
            level = if nested { level + 1 } else { 1 };
            j += 2;
        } else if src[j] == b'*' && src[j + 1] == b'/' {
            level -= 1;
            j += 2;
            if level == 0 {
                return j;
            }
        } else {
            j += 1;
        }
    }
    src.len()
}

/// The offset after the regular expression literal opening at `i`, and
/// whether it was closed (one left open ends before its line's newline).
fn skip_regex(src: &[u8], i: usize) -> (usize, bool) {
    let mut j = i + 1;
    let mut class = false;
    while j < src.len() {
        match src[j] {
            b'\\' => j += 2,
            b'\n' => return (j, false),
            b'[' => {
                class = true;
                j += 1;
            }
            b']' => {
                class = false;
                j += 1;
            }
            b'/' if !class => return (j + 1, true),
            _ => j += 1,
        }
    }
    (src.len(), false)
}

/// The offset after the string or character literal opening at `i` (its
/// quote byte closes it), and whether it was closed; unless `multiline`,
/// one left open ends before its line's newline.
fn skip_quoted(src: &[u8], i: usize, multiline: bool) -> (usize, bool) {
    let quote = src[i];
    let mut j = i + 1;
    while j < src.len() {
        match src[j] {
            b'\\' => j += 2,
            b'\n' if !multiline => return (j, false),
            c if c == quote => return (j + 1, true),
            _ => j += 1,
        }
    }
    (src.len(), false)
}

/// The offset after a Rust `'`: a character literal (`'a'`, `'\n'`,
/// `'é'`) or only the tick of a lifetime or label.
fn skip_tick(src: &[u8], i: usize) -> usize {
    match src.get(i + 1) {
        Some(b'\\') => skip_quoted(src, i, false).0,
        Some(&b) => {
            let len = match b {
                0xF0..=0xF7 => 4,
                0xE0..=0xEF => 3,
                0xC0..=0xDF => 2,
                _ => 1,
            };
            if src.get(i + 1 + len) == Some(&b'\'') {
                i + 2 + len
            } else {
                i + 1
            }
        }
        None => src.len(),
    }
}

/// The end of a Rust raw string (`r"…"`, `r#"…"#`, `br#"…"#`, `cr#"…"#`) starting at
/// `i`, or None when none starts there.
fn rust_raw_end(src: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if src[j] == b'b' || src[j] == b'c' {
        j += 1;
    }
    if src.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = src[j..].iter().take_while(|&&b| b == b'#').count();
    j += hashes;
    if src.get(j) != Some(&b'"') {
        return None;
    }
    j += 1;
    loop {
        let k = memchr::memchr(b'"', &src[j..])?;
        let end = j + k + 1;
        if src[end..]
            .iter()
            .take(hashes)
            .filter(|&&b| b == b'#')
            .count()
            == hashes
        {
            return Some(end + hashes);
        }
        j = end;
    }
}

/// Scans template literal text from `i` (just after the opening backtick
/// or a hole's `}`): returns the offset after the closing backtick, or
/// after a `${`, having pushed the hole's depth and entered it.
fn skip_template(src: &[u8], i: usize, holes: &mut Vec<i64>, depth: &mut i64) -> usize {
    let mut j = i;
    while j < src.len() {
        match src[j] {
            b'\\' => j += 2,
            b'`' => return j + 1,
            b'$' if src.get(j + 1) == Some(&b'{') => {
                holes.push(*depth);
                *depth += 1;
                return j + 2;
            }
            _ => j += 1,
        }
    }
    src.len()
}

/// Whether a line starting with `s` starts a top-level part: one of
/// `keywords`, a word one not followed by an identifier character.
fn starts_decl(s: &[u8], keywords: &[&[u8]]) -> bool {
    keywords.iter().any(|kw| {
        s.starts_with(kw)
            && (!is_ident_byte(kw[kw.len() - 1])
                || s.get(kw.len()).is_some_and(|&b| !is_ident_byte(b)))
    })
}

/// The offsets where the top-level definitions of a Python source start:
/// 0, then each line that starts with `def`, `class`, `async` or a
/// decorator in the first column, outside brackets, strings and continued
/// lines, and not right after a decorator.
fn python_starts(src: &[u8]) -> Vec<usize> {
    let n = src.len();
    let mut starts = vec![0];
    let mut depth: i64 = 0;
    let mut at_line_start = true;
    let mut continued = false; // the last line ended with a backslash
    let mut after_decorator = false; // the last code line at depth 0 was a decorator
    let mut unsure = false; // a string was left open: no more cuts
    let mut i = 0;
    while i < n {
        if at_line_start {
            at_line_start = false;
            if depth == 0 && !continued && !unsure {
                match src[i] {
                    b'\n' | b'#' => {}
                    b' ' | b'\t' | b'\r' | b'\x0c' => {
                        // An indented line: blank ones change nothing.
                        let rest = &src[i..];
                        let code = rest
                            .iter()
                            .position(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\x0c'))
                            .map(|k| rest[k]);
                        if !matches!(code, None | Some(b'\n') | Some(b'#')) {
                            after_decorator = false;
                        }
                    }
                    _ => {
                        let rest = &src[i..];
                        let decorator = rest[0] == b'@';
                        if i > 0
                            && !after_decorator
                            && (decorator || starts_decl(rest, &[b"def", b"class", b"async"]))
                        {
                            starts.push(i);
                        }
                        after_decorator = decorator;
                    }
                }
            }
            continued = false;
        }
        match src[i] {
            b'\n' => {
                at_line_start = true;
                i += 1;
            }
            b'\\' if src.get(i + 1) == Some(&b'\n') => {
                continued = true;
                i += 2;
                at_line_start = true;
            }
            b'\\' if src.get(i + 1) == Some(&b'\r') && src.get(i + 2) == Some(&b'\n') => {
                continued = true;
                i += 3;
                at_line_start = true;
            }
            b'#' => i = memchr::memchr(b'\n', &src[i..]).map_or(n, |k| i + k),
            b'"' | b'\'' => {
                // A string left open (an f-string whose `{…}` spans lines,
                // in Python 3.12): the lexer may be wrong from here on.
                let (end, closed) = skip_python_string(src, i);
                unsure |= !closed;
                i = end;
            }
            b'{' | b'(' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b')' | b']' => {
                depth -= 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    starts
}

/// The offset after the Python string opening at `i` (any prefix is just
/// an identifier before it), and whether it was closed: triple-quoted ones
/// span lines, others end at their line's end when left open.
fn skip_python_string(src: &[u8], i: usize) -> (usize, bool) {
    let q = src[i];
    if src.get(i + 1) == Some(&q) && src.get(i + 2) == Some(&q) {
        let mut j = i + 3;
        while j < src.len() {
            match src[j] {
                b'\\' => j += 2,
                b if b == q && src.get(j + 1) == Some(&q) && src.get(j + 2) == Some(&q) => {
                    return (j + 3, true)
                }
                _ => j += 1,
            }
        }
        return (src.len(), false);
    }
    skip_quoted(src, i, false)
}

/// The tree-sitter ranges of `parts` of `src`, with their points.
pub fn ts_ranges(src: &[u8], parts: &[Range<usize>]) -> Vec<tree_sitter::Range> {
    let mut row = 0usize;
    let mut line_start = 0usize;
    let mut pos = 0usize;
    let mut point = |to: usize| {
        for k in memchr::memchr_iter(b'\n', &src[pos..to]) {
            row += 1;
            line_start = pos + k + 1;
        }
        pos = to;
        tree_sitter::Point {
            row,
            column: to - line_start,
        }
    };
    parts
        .iter()
        .map(|r| {
            let start_point = point(r.start);
            let end_point = point(r.end);
            tree_sitter::Range {
                start_byte: r.start,
                end_byte: r.end,
                start_point,
                end_point,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::compile::tests::matcher;

    fn starts_of(lang: SupportLang, src: &str) -> Vec<&str> {
        let s = decl_starts(lang, src.as_bytes()).unwrap();
        s.iter()
            .map(|&i| src[i..].lines().next().unwrap_or(""))
            .collect()
    }

    #[test]
    fn go_cuts_before_top_level_declarations_only() {
        let src = "package p\n\nimport \"fmt\"\n\n// F does.\nfunc F() {\nfunc() {}()\n}\nvar x = `\nfunc not\n`\n/*\ntype T int\n*/\nconst c = \"{\"\ntype (\nA int\n)\nvar r = '('\nfunc G() {}\nfunctional := 1\n";
        assert_eq!(
            starts_of(SupportLang::Go, src),
            vec![
                "package p",
                "import \"fmt\"",
                "func F() {",
                "var x = `",
                "const c = \"{\"",
                "type (",
                "var r = '('",
                "func G() {}",
            ]
        );
    }

    #[test]
    fn unbalanced_brackets_stop_cutting() {
        let src = "package p\nfunc F() {\n\nfunc G() {}\n";
        assert_eq!(
            starts_of(SupportLang::Go, src),
            vec!["package p", "func F() {"]
        );
    }

    #[test]
    fn rust_skips_raw_strings_chars_and_nested_comments() {
        let src = "use a;\n#[derive(X)]\nstruct S<'a> { c: &'a str }\nfn f() {\n    let s = r#\"\nfn no() {\n\"#;\n    let c = '{';\n}\n/* /* */\nfn no() {}\n*/\nconst X: &str = \"a\nstatic no\";\nimpl S<'_> {}\npub fn g() {}\nfn h()\n-> u8 { 1 }\n";
        assert_eq!(
            starts_of(SupportLang::Rust, src),
            vec![
                "use a;",
                "#[derive(X)]",
                "fn f() {",
                "const X: &str = \"a",
                "impl S<'_> {}",
                "pub fn g() {}",
                "fn h()",
            ]
        );
    }

    #[test]
    fn javascript_skips_templates_and_regexes() {
        let src = "import a from 'a';\nconst t = `\nfunction no() {\n${ {a: 1}.a }\n`;\nconst r = /[}]/;\nexport default\nfunction yes() {}\n@dec()\nexport class C {}\nlet x = 1\nlet y = 2;\n";
        assert_eq!(
            starts_of(SupportLang::TypeScript, src),
            vec![
                "import a from 'a';",
                "const t = `",
                "const r = /[}]/;",
                "export default",
                "@dec()",
                "let x = 1",
            ]
        );
    }

    #[test]
    fn python_keeps_decorators_with_their_definitions() {
        let src = "import os\n\n@dec(\n    1)\n@other\ndef f():\n    '''\ndef no():\n'''\n    return (\ndef)\n\nclass C:\n    def m(self): pass\nx = 1 + \\\ndef_not = 2\nasync def g(): pass\n";
        assert_eq!(
            starts_of(SupportLang::Python, src),
            vec!["import os", "@dec(", "class C:", "async def g(): pass"]
        );
    }

    #[test]
    fn python_continuation_with_crlf() {
        let src = "x = a \\\r\n@ b\r\n@dec\r\ndef f(): pass\r\n";
        assert_eq!(
            starts_of(SupportLang::Python, src),
            vec!["x = a \\", "@dec"]
        );
    }

    #[test]
    fn ranges_carry_points() {
        let src = b"ab\ncd\nef\n";
        let r = ts_ranges(src, &[3..6, 6..9]);
        assert_eq!((r[0].start_point.row, r[0].start_point.column), (1, 0));
        assert_eq!((r[0].end_point.row, r[0].end_point.column), (2, 0));
        assert_eq!((r[1].end_point.row, r[1].end_point.column), (3, 0));
    }
    #[test]
    fn typescript_regex_or_division() {
        // Each `fake` below is inside a template literal or a class body.
        let cases = [
            "const a = 1;\nif (c) /`/.test(s);\nconst t = `;\nfunction fake() { foo(1) }\n// `;\n",
            "const a = 1;\nx = i++ / 2 + `/;\nfunction fake() { foo(1) }\n// `;\n",
            "class K {\n  m(s) { return /}}/.test(s); }\nasync = foo(1);\nasync m2() {}\n}\n",
        ];
        for src in cases {
            let starts = starts_of(SupportLang::TypeScript, src);
            assert!(
                !starts
                    .iter()
                    .any(|l| l.contains("fake") || l.starts_with("async")),
                "{src:?}: {starts:?}"
            );
        }
        // A division after a name, a regex after `(`.
        let src = "const a = b / 2;\nconst r = (/[`]/);\nconst z = 1;\n";
        assert_eq!(
            starts_of(SupportLang::TypeScript, src),
            vec!["const a = b / 2;", "const r = (/[`]/);", "const z = 1;"]
        );
        // JavaScript and TSX (JSX text) are not cut.
        assert_eq!(
            decl_starts(SupportLang::Tsx, b"const a = 1;\nconst b = 2;\n"),
            None
        );
    }

    #[test]
    fn rust_c_strings_and_open_strings() {
        let src = "const S: &CStr = cr#\"a\"\n;\nfn fake() { foo(1) }\n// \"#;\nfn real() {}\n";
        assert_eq!(
            starts_of(SupportLang::Rust, src),
            vec!["const S: &CStr = cr#\"a\"", "fn real() {}"]
        );
        let py = "x = f\"{'''\ndef fake(): foo(1)\n'''}\"\nz = 1 # '''\ndef g(): pass\n";
        assert_eq!(starts_of(SupportLang::Python, py), vec!["x = f\"{'''"]);
    }

    /// Whenever the bound says no part can be skipped, the lexer agrees:
    /// random Go and Python files whose functions hold the literal densely,
    /// sparsely or in runs, with small and large functions between.
    #[test]
    fn parts_cannot_pay_only_when_the_plan_keeps_the_whole_file() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let cases = [
            (SupportLang::Go, "needle($$$A)"),
            (SupportLang::Python, "needle($$$A)"),
            (SupportLang::Python, "def $F($$$P): $$$B"),
        ];
        let (mut said_whole, mut parts_seen) = (0, 0);
        for (lang, pattern) in cases {
            let m = matcher(lang, pattern);
            for _ in 0..300 {
                let mut src = String::new();
                if lang == SupportLang::Go {
                    src.push_str("package p\n\n");
                }
                let density = next(4);
                for f in 0..(2 + next(40)) {
                    let holds = match density {
                        0 => true,
                        1 => next(2) == 0,
                        2 => next(10) == 0,
                        _ => f % 7 < 3,
                    };
                    let long = next(5) == 0;
                    let body_lines = 1 + next(if long { 60 } else { 6 });
                    let call = if holds { "needle(x)" } else { "other(x)" };
                    if lang == SupportLang::Go {
                        src.push_str(&format!("func f{f}(x int) {{\n"));
                        for _ in 0..body_lines {
                            src.push_str("\tx = x + 1 // filler text\n");
                        }
                        src.push_str(&format!("\t{call}\n}}\n\n"));
                    } else {
                        let head = if holds || pattern.starts_with("needle") {
                            format!("def f{f}(x):\n")
                        } else {
                            format!("class C{f}:\n    x = 1\n")
                        };
                        src.push_str(&head);
                        for _ in 0..body_lines {
                            src.push_str("    x = x + 1  # filler text\n");
                        }
                        src.push_str(&format!("    {call}\n\n"));
                    }
                }
                let full = plan(&m, src.as_bytes(), true);
                if matches!(full, Plan::Parts(_)) {
                    parts_seen += 1;
                }
                if parts_cannot_pay(&m, src.as_bytes()) {
                    said_whole += 1;
                    assert!(
                        matches!(full, Plan::Whole | Plan::Declarations(_)),
                        "{pattern} in {src:?}: {full:?}"
                    );
                    assert_eq!(plan(&m, src.as_bytes(), false), Plan::Whole);
                }
            }
        }
        // Both answers came up often enough for the test to mean something.
        assert!(
            said_whole > 100 && parts_seen > 100,
            "{said_whole} {parts_seen}"
        );
    }

    /// Two literals: one everywhere, the other in one function. The plan
    /// keeps that function alone; the bound, built on one literal, must not
    /// claim otherwise (a review found it did, with the longest literal).
    #[test]
    fn parts_cannot_pay_leaves_rules_of_several_literals_to_the_lexer() {
        let m = matcher(SupportLang::Go, "fmt.Errorf($$$A)");
        assert!(m.rules[0].literals.len() > 1);
        let mut src = String::from("package p\n\n");
        for f in 0..200 {
            src.push_str(&format!(
                "func f{f}() error {{\n\tx := 1\n\treturn log.Errorf(\"e%d\", x)\n}}\n\n"
            ));
        }
        src.push_str("func g() error {\n\treturn fmt.Errorf(\"x\")\n}\n");
        assert!(matches!(plan(&m, src.as_bytes(), true), Plan::Parts(_)));
        assert!(!parts_cannot_pay(&m, src.as_bytes()));
        assert!(matches!(plan(&m, src.as_bytes(), false), Plan::Parts(_)));
    }
}
